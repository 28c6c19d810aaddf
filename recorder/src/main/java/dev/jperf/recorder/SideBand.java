package dev.jperf.recorder;

import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.Poll;
import dev.jperf.nativeshim.Sched;
import java.util.List;
import java.util.concurrent.locks.Lock;

/**
 * The side-band reader: owns the tracking rings (MMAP2, COMM, FORK/EXIT, KSYMBOL, BPF_EVENT)
 * and wakes on every record (the rings use watermark 1; wakeup_events would count only samples,
 * ring-buffer.md §5). On each wake it first pins every newly loaded BPF program by id - one
 * syscall each, before anything else, since such a program may live only ~0.2 ms - then copies
 * the records into the file and fetches the pinned programs' info and BTF. It runs SCHED_FIFO
 * where allowed, so it preempts the workload the moment the kernel wakes it.
 */
final class SideBand implements Runnable {
    /** How long one poll may sleep: bounds the latency of stop(). */
    private static final int POLL_MS = 100;

    private final List<RingBuffer> rings;
    private final BpfCapture capture;
    private final Lock fileLock;
    private final RecordCopier copier;
    private final long[] scanned;
    private final Poll poll;
    private final Thread thread = new Thread(this, "jperf-sideband");
    private final RingBuffer.Visitor pinner;
    private volatile boolean copying;
    private volatile boolean stop;
    private volatile boolean realtime;
    private volatile Throwable crash;

    SideBand(List<RingBuffer> rings, BpfCapture capture, Lock fileLock, RecordCopier copier) {
        this.rings = rings;
        this.capture = capture;
        this.fileLock = fileLock;
        this.copier = copier;
        this.scanned = new long[rings.size()];
        this.poll = new Poll(rings.stream().mapToInt(RingBuffer::fd).toArray(), Poll.POLLIN);
        this.pinner = (buf, off, size, type) -> {
            if (type == RecordCopier.PERF_RECORD_BPF_EVENT && size >= 16
                    && buf.getShort(off + 8) == RecordCopier.PERF_BPF_EVENT_PROG_LOAD) {
                capture.pin(buf.getInt(off + 12));
            }
        };
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** From now on records are copied into the file (the start-up records are written). */
    void startCopying() {
        copying = true;
    }

    /** Stops the thread and waits for it; the rings are the caller's again. */
    void stop() throws InterruptedException {
        stop = true;
        thread.join();
    }

    /** Whether the thread got real-time priority. */
    boolean realtime() {
        return realtime;
    }

    /** What killed the thread, if anything did. */
    Throwable crash() {
        return crash;
    }

    @Override
    public void run() {
        try {
            Sched.setFifo(1);
            realtime = true;
        } catch (NativeException e) {
            // no CAP_SYS_NICE: an ordinary thread still wakes on every record
        }
        try {
            while (!stop) {
                poll.poll(POLL_MS);
                pinNew();
                if (copying) {
                    fileLock.lock();
                    try {
                        for (RingBuffer r : rings) {
                            r.drain(copier);
                        }
                    } finally {
                        fileLock.unlock();
                    }
                }
                capture.fetchPinned();
            }
        } catch (RuntimeException | Error e) {
            crash = e;
        }
    }

    private void pinNew() {
        for (int i = 0; i < rings.size(); i++) {
            RingBuffer r = rings.get(i);
            scanned[i] = r.scan(Math.max(scanned[i], r.tail()), pinner);
        }
    }
}
