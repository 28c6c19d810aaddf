package dev.jperf.recorder;

import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.Poll;
import dev.jperf.nativeshim.Sched;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The side-band reader of one CPU: owns that CPU's tracking ring (MMAP2, COMM, FORK/EXIT,
 * KSYMBOL, BPF_EVENT), which wakes it on every record (watermark 1; wakeup_events would count only
 * samples, ring-buffer.md §5). On each wake it first pins every newly loaded BPF program by id -
 * one syscall each, before anything else - then copies the records into a pending buffer that the
 * recorder's main pass appends to the file (handed over through lock-free queues when the main
 * pass asks, so a handful of buffers circulate); fetching the pinned programs' info is another
 * thread's work.
 *
 * <p>Why one thread per CPU, bound to it and SCHED_FIFO: the kernel writes a program's load
 * records into the ring of the CPU that ran bpf(BPF_PROG_LOAD), so this thread wakes on the
 * loader's own CPU and preempts the loader before it returns from the syscall. A program closed
 * right after loading (alive ~25 us here) is pinned before its loader can close it.
 */
final class SideBand implements Runnable {
    /** How long one poll may sleep: bounds the latency of stop(). */
    private static final int POLL_MS = 100;
    /** Above the recorder's main loop (which is real-time too), so a pin never waits for a copy. */
    static final int PRIORITY = 2;
    /**
     * Pending buffers are allocated up front (their pages touched by the zeroing) and recycled:
     * a page fault takes the process-wide mmap lock, which any preempted JVM thread may hold.
     */
    private static final int BUFFER_SIZE = 256 << 10;
    private static final int BUFFERS = 3;

    private final RingBuffer ring;
    private final BpfCapture capture;
    private final Poll poll;
    private final Thread thread;
    private final RingBuffer.Visitor pinner;
    private final RingBuffer.Visitor copier;
    private final int trailerSize;
    private final Bpf bpf = new Bpf();
    private final PinQueue queue;
    /** Filled buffers for the main pass, and emptied ones back: lock-free, see BpfCapture. */
    private final ConcurrentLinkedQueue<ByteBuffer> full = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<ByteBuffer> empty = new ConcurrentLinkedQueue<>();
    private ByteBuffer pending = newBuffer(BUFFER_SIZE);
    private long scanned;
    private volatile boolean stop;
    /** Set by the main pass: publish the pending records at the next wake (at most one poll away). */
    private volatile boolean wanted;
    private volatile Throwable crash;

    SideBand(RingBuffer ring, BpfCapture capture, int trailerSize) {
        this.ring = ring;
        this.capture = capture;
        this.trailerSize = trailerSize;
        this.poll = new Poll(new int[] {ring.fd()}, Poll.POLLIN);
        this.queue = capture.newQueue();
        this.thread = new Thread(this, "jperf-sideband-" + ring.cpu());
        this.pinner = (buf, off, size, type) -> {
            if (type == RecordCopier.PERF_RECORD_BPF_EVENT && size >= 16
                    && buf.getShort(off + 8) == RecordCopier.PERF_BPF_EVENT_PROG_LOAD) {
                capture.pin(buf.getInt(off + 12), bpf, queue);
            }
        };
        this.copier = this::copy;
        for (int i = 1; i < BUFFERS; i++) {
            empty.add(newBuffer(BUFFER_SIZE));
        }
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Stops the thread and waits for it; the ring is the caller's again. */
    void stop() throws InterruptedException {
        stop = true;
        thread.join();
    }

    /** What killed the thread, if anything did. */
    Throwable crash() {
        return crash;
    }

    /**
     * Hands the records this thread published to {@code sink} (under the recorder's file lock) and
     * recycles their buffers. Called by the main pass; after {@link #stop} also takes the rest.
     */
    void takePending(RecordCopier sink) {
        if (!thread.isAlive()) {
            publish();
        }
        wanted = true;
        for (ByteBuffer b; (b = full.poll()) != null; ) {
            sink.appendOwn(b);
            b.clear();
            empty.add(b);
        }
    }

    /** Moves the records copied so far to the queue the main pass reads. */
    private void publish() {
        if (pending.position() > 0) {
            full.add(pending.flip());
            ByteBuffer next = empty.poll();
            pending = next != null ? next : newBuffer(BUFFER_SIZE);
        }
    }

    private static ByteBuffer newBuffer(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public void run() {
        try {
            Sched.setAffinity(ring.cpu());
            Sched.setFifo(PRIORITY);
        } catch (NativeException e) {
            // no CAP_SYS_NICE (or CPU hot-unplugged): an ordinary thread still wakes on every record
        }
        BpfCapture.warmUp(bpf);
        try {
            Idle idle = new Idle();
            while (!stop) {
                boolean woken = poll.poll(POLL_MS) > 0;
                scanned = ring.scan(Math.max(scanned, ring.tail()), pinner);
                long n = ring.drain(copier);
                if (wanted) {
                    wanted = false;
                    publish();
                }
                idle.after(woken, n > 0);
            }
        } catch (RuntimeException | Error e) {
            crash = e;
        }
    }

    /** Copies one record into the pending buffer, cutting KSYMBOL/BPF_EVENT to their canonical size. */
    private void copy(ByteBuffer buf, int off, int size, int type) {
        // records that arrived between the scan and this drain are pinned here
        pinner.record(buf, off, size, type);
        int n = size;
        if (type == RecordCopier.PERF_RECORD_KSYMBOL || type == RecordCopier.PERF_RECORD_BPF_EVENT) {
            n = RecordCopier.canonicalSize(buf, off, size, type, trailerSize);
        }
        if (pending.remaining() < n) {
            ByteBuffer bigger = newBuffer(Math.max(pending.capacity() * 2, pending.position() + n));
            bigger.put(pending.flip());
            pending = bigger;
        }
        int at = pending.position();
        pending.put(at, buf, off, n);
        if (n != size) {
            pending.putShort(at + 6, (short) n);
        }
        pending.position(at + n);
    }
}
