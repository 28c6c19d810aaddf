package dev.jperf.recorder;

import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.Poll;
import dev.jperf.nativeshim.Sched;

/**
 * The side-band watcher of one CPU: wakes on every record of that CPU's tracking ring (MMAP2,
 * COMM, FORK/EXIT, KSYMBOL, BPF_EVENT; watermark 1, since wakeup_events would count only samples,
 * ring-buffer.md §5) and pins every newly loaded BPF program by id - one syscall, nothing else.
 * It only looks: the recorder's main pass copies the records into the file with the others, in
 * its rounds, so the file's FINISHED_ROUND ordering holds for them too.
 *
 * <p>Why one thread per CPU, bound to it and SCHED_FIFO: the kernel writes a program's load
 * records into the ring of the CPU that ran bpf(BPF_PROG_LOAD), so this thread wakes on the
 * loader's own CPU and preempts the loader before it returns from the syscall. A program closed
 * right after loading (alive ~25 us here) is pinned before its loader can close it.
 *
 * <p>The main pass may release records while this thread reads them; a record read below the
 * ring's tail afterwards may have been overwritten, so its id is not trusted (the main pass pinned
 * it while copying it).
 */
final class SideBand implements Runnable {
    /** How long one poll may sleep: bounds the latency of stop(). */
    private static final int POLL_MS = 100;
    /** Above the recorder's main loop (which is real-time too), so a pin never waits for a copy. */
    static final int PRIORITY = 2;
    private static final int MAX_CANDIDATES = 1024;

    private final RingBuffer ring;
    private final BpfCapture capture;
    private final Poll poll;
    private final Thread thread;
    private final Bpf bpf = new Bpf();
    private final PinQueue queue;
    private final RingBuffer.Visitor collector;
    /** PROG_LOAD ids seen by the current scan and where their records were. */
    private final int[] ids = new int[MAX_CANDIDATES];
    private final long[] positions = new long[MAX_CANDIDATES];
    private int candidates;
    private long scanned;
    private volatile boolean stop;
    private volatile Throwable crash;

    SideBand(RingBuffer ring, BpfCapture capture) {
        this.ring = ring;
        this.capture = capture;
        this.poll = new Poll(new int[] {ring.fd()}, Poll.POLLIN);
        this.thread = new Thread(this, "jperf-sideband-" + ring.cpu());
        this.queue = capture.newQueue();
        this.collector = (buf, off, size, type) -> {
            if (type == RecordCopier.PERF_RECORD_BPF_EVENT && size >= 16
                    && buf.getShort(off + 8) == RecordCopier.PERF_BPF_EVENT_PROG_LOAD && candidates < MAX_CANDIDATES) {
                ids[candidates] = buf.getInt(off + 12);
                positions[candidates++] = ring.scanPosition();
            }
        };
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Stops the thread and waits for it. */
    void stop() throws InterruptedException {
        stop = true;
        thread.join();
    }

    /** What killed the thread, if anything did. */
    Throwable crash() {
        return crash;
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
                long from = Math.max(scanned, ring.tail());
                candidates = 0;
                scanned = ring.scan(from, collector);
                long released = ring.tail();
                for (int i = 0; i < candidates; i++) {
                    if (positions[i] >= released) {
                        capture.pin(ids[i], bpf, queue);
                    }
                }
                idle.after(woken, scanned != from);
            }
        } catch (RuntimeException | Error e) {
            crash = e;
        }
    }
}
