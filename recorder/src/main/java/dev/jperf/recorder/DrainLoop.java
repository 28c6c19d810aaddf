package dev.jperf.recorder;

import dev.jperf.nativeshim.RingBuffer;
import dev.jperf.format.record.RecordType;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.Poll;
import dev.jperf.nativeshim.Sched;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.BooleanSupplier;

/**
 * The recording's main loop: poll the sampling rings, drain them into the file with a
 * FINISHED_ROUND after each pass that copied anything (ring-buffer.md §8), checkpoint the file
 * now and then. The main thread is the file's only writer: no lock.
 */
final class DrainLoop {
    /** How long the loop sleeps in poll at most: bounds stop latency and data age. */
    private static final int POLL_MS = 100;
    /**
     * The first rounds poll this briefly: the drain's code is compiled after its second call (the
     * launcher's list), so the first round, interpreted, should carry a few milliseconds of samples,
     * not the first {@link #POLL_MS} (bench/README.md).
     */
    static final int WARM_UP_POLL_MS = 5;
    static final int WARM_UP_ROUNDS = 3;
    /**
     * How often the header and feature sections are rewritten so that the file stays readable
     * (kill -9 loses at most a second): checked after each pass, at most {@link #POLL_MS} apart,
     * so rewrites come 0.9-1.0 s apart. Each costs a flush and three writes.
     */
    private static final long CHECKPOINT_NS = 900_000_000L;
    /** Real-time priority of the draining loop: below the side-band threads'. */
    private static final int MAIN_PRIORITY = 1;

    private final RingBuffer[] rings;
    private final Poll poll;
    private final ByteBuffer round = finishedRound();
    private final RecordCopier copier;
    private final FeatureUpdates features;
    private final BpfCapture capture;
    private final BpfImages images;
    private final Idle idle = new Idle();
    /** -p/-t without a workload: the loop ends when every target is gone. */
    private final boolean targetsOnly;
    private long lastCheckpoint = System.nanoTime();
    private int rounds;

    DrainLoop(RingBuffer[] rings, RecordCopier copier, FeatureUpdates features, BpfCapture capture, BpfImages images,
            boolean targetsOnly) {
        this.rings = rings;
        int[] fds = new int[rings.length];
        for (int i = 0; i < fds.length; i++) {
            fds[i] = rings[i].fd();
        }
        this.poll = new Poll(fds, Poll.POLLIN);
        this.copier = copier;
        this.features = features;
        this.capture = capture;
        this.images = images;
        this.targetsOnly = targetsOnly;
    }

    /** Drains until {@code done} or every -p/-t target is gone, as a real-time thread when allowed. */
    void run(BooleanSupplier done) {
        boolean realtime = false;
        try {
            // a busy machine must not keep the rings from being drained (lost samples)
            Sched.setFifo(MAIN_PRIORITY);
            realtime = true;
        } catch (NativeException e) {
            // no CAP_SYS_NICE: drain as an ordinary thread
        }
        try {
            // this loop runs once per recording, ~20 rounds a second: it stays interpreted, while
            // the launcher has step compiled after two calls (no on-stack replacement of a
            // method that is also compiled whole and never called again)
            while (!done.getAsBoolean() && step()) {
                // step does it all
            }
        } finally {
            if (realtime) {
                Sched.setNormal();
            }
        }
    }

    /** One round; false once every -p/-t target is gone (perf record -p stops when its process exits). */
    boolean step() {
        boolean woken = poll.poll(pollTimeoutMs(rounds)) > 0;
        if (rounds < WARM_UP_ROUNDS) {
            rounds++;
        }
        if (woken && targetsOnly && allHungUp()) {
            return false;
        }
        long before = copier.records() + copier.ownBytes();
        pass();
        capture.wakeFetcher();
        idle.after(woken, copier.records() + copier.ownBytes() != before);
        if (System.nanoTime() - lastCheckpoint >= CHECKPOINT_NS) {
            features.checkpoint();
            lastCheckpoint = System.nanoTime();
        }
        return true;
    }

    /** poll's timeout in round {@code round} (from 0). */
    static int pollTimeoutMs(int round) {
        return round < WARM_UP_ROUNDS ? WARM_UP_POLL_MS : POLL_MS;
    }

    private boolean allHungUp() {
        for (int i = 0; i < rings.length; i++) {
            if ((poll.revents(i) & Poll.POLLHUP) == 0) {
                return false;
            }
        }
        return true;
    }

    /** One pass over the rings; a FINISHED_ROUND after it if anything was copied. */
    void pass() {
        long before = copier.records() + copier.ownBytes();
        for (RingBuffer r : rings) {
            r.drain(copier);
        }
        images.afterPass(copier);
        if (copier.records() + copier.ownBytes() != before) {
            copier.appendOwnPlain(round);
        }
    }

    /**
     * A FINISHED_ROUND record, built once: the loop appends it ~20 times a second. In a direct
     * buffer, as the rings are: the writer's walk and copy of it then run the direct buffers' code
     * the launcher compiles early, not the heap buffers' (which start-up code alone would need).
     */
    private static ByteBuffer finishedRound() {
        SyntheticRecords round = new SyntheticRecords(0);
        round.empty(RecordType.PERF_RECORD_FINISHED_ROUND);
        ByteBuffer heap = round.records();
        ByteBuffer direct = ByteBuffer.allocateDirect(heap.remaining()).order(ByteOrder.LITTLE_ENDIAN);
        direct.put(heap).flip();
        return direct;
    }
}
