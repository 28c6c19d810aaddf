package dev.jperf.recorder;

import dev.jperf.nativeshim.RingBuffer;
import dev.jperf.format.record.BpfEventRecord;
import dev.jperf.format.record.RecordType;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.EventFd;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.Poll;
import dev.jperf.nativeshim.Sched;
import java.nio.MappedByteBuffer;

/**
 * The side-band reader of one CPU, as perf's side-band thread: wakes on every record of that CPU's
 * side-band ring (BPF_EVENT only, watermark 1, see {@link PerfEvents}) and pins every newly loaded
 * BPF program by id - one syscall, nothing else. The records the file gets come through the
 * tracking dummy in the sampling ring, in the main pass's rounds; this ring is only read, so
 * mmaps, forks and exits anywhere on the machine wake nobody.
 *
 * <p>Why one thread per CPU, bound to it and SCHED_FIFO: the kernel writes a program's load
 * records into the ring of the CPU that ran bpf(BPF_PROG_LOAD), so this thread wakes on the
 * loader's own CPU and preempts the loader before it returns from the syscall. A program closed
 * right after loading (alive ~25 us here) is pinned before its loader can close it.
 */
final class SideBand implements Runnable, RingBuffer.Visitor {
    /** How long one poll may sleep, as perf's side-band thread: stop() wakes it through {@link #wake}. */
    private static final int POLL_MS = 1000;
    /** Above the recorder's main loop (which is real-time too), so a pin never waits for a copy. */
    static final int PRIORITY = 2;

    private final RingBuffer ring;
    private final BpfCapture capture;
    private final Poll poll;
    /** Signalled by stop(): ring records are the only other reason to wake. */
    private final EventFd wake = new EventFd();
    private final Thread thread;
    private final Bpf bpf = new Bpf();
    private final PinQueue queue;
    private volatile boolean stop;
    private volatile Throwable crash;

    SideBand(RingBuffer ring, BpfCapture capture) {
        this.ring = ring;
        this.capture = capture;
        this.poll = new Poll(new int[] {ring.fd(), wake.fd()}, Poll.POLLIN);
        this.thread = new Thread(this, "jperf-sideband-" + ring.cpu());
        this.queue = capture.newQueue();
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Stops the thread and waits for it. */
    void stop() throws InterruptedException {
        stop = true;
        wake.signal();
        thread.join();
        wake.close();
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
                idle.after(woken, ring.drain(this) != 0);
            }
        } catch (RuntimeException | Error e) {
            crash = e;
        }
    }

    @Override
    public void record(MappedByteBuffer buf, int offset, long address, int size, int type, int misc) {
        if (type == RecordType.PERF_RECORD_BPF_EVENT && size >= 16
                && buf.getShort(offset + 8) == BpfEventRecord.PERF_BPF_EVENT_PROG_LOAD) {
            capture.pin(buf.getInt(offset + 12), bpf, queue);
        }
    }
}
