package dev.jperf.report.session;

import dev.jperf.format.header.EventDesc;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * Runs a {@link SampleSink} on a thread of its own: the session thread resolves samples while this
 * one aggregates the ones before (the children view spends about as long in each, and a machine
 * with two cores had one mostly idle). Samples go over in batches of flat arrays, reused
 * (no object per sample), and come out as one reused {@link CurrentSample} in the same order, so
 * the sink sees what it would have seen on the session thread. What a sample refers to (frames,
 * threads, comms, events) is immutable or read only for keys that never change (a thread's tid).
 * Branch stacks are not carried: branch mode aggregates on the session thread.
 */
public final class PipelinedSink implements SampleSink {
    /** Samples per batch. */
    private static final int SAMPLES = 2048;
    /** Callchain frames per batch (a sample's chain is at most {@link Machine#PERF_MAX_STACK_DEPTH}). */
    private static final int FRAMES = 32 * SAMPLES;
    /**
     * Batches in flight: one filled, one aggregated, the rest waiting between. The aggregation
     * comes in bursts (a run of new stacks walks every frame): with 3 batches of 4096 samples the
     * session thread waited ~150 ms for a free one on the busy file, with 12 of 2048 ~100 ms.
     */
    private static final int BATCHES = 12;

    /**
     * One batch of samples (a block, not to be confused with the reader's {@link
     * dev.jperf.report.session.Batch}): per sample a row of longs, ints and references; the
     * chains' frames flat.
     */
    private static final class Block {
        static final int L = 5;
        static final int I = 8;
        static final int O = 4;
        final long[] d = new long[SAMPLES * L];
        final int[] w = new int[SAMPLES * I];
        final Object[] o = new Object[SAMPLES * O];
        final Frame[] frames = new Frame[FRAMES];
        int n;
        int framesUsed;
        boolean last;

        boolean full(int chainLength) {
            return n == SAMPLES || framesUsed + Math.max(chainLength, 0) > FRAMES;
        }

        /** Appends sample {@code s} (the caller has checked {@link #full}). */
        void put(CurrentSample s) {
            int k = n++;
            int at = k * L;
            d[at] = s.ip;
            d[at + 1] = s.time;
            d[at + 2] = s.period;
            d[at + 3] = s.offset;
            d[at + 4] = s.chainId;
            int wi = k * I;
            w[wi] = s.pid;
            w[wi + 1] = s.tid;
            w[wi + 2] = s.cpu;
            w[wi + 3] = s.misc;
            w[wi + 4] = s.chainLength;
            w[wi + 5] = s.chainHash;
            w[wi + 6] = (s.chainHashed ? 1 : 0) | (s.filtered ? 2 : 0);
            w[wi + 7] = framesUsed;
            int oi = k * O;
            o[oi] = s.event;
            o[oi + 1] = s.thread;
            o[oi + 2] = s.comm;
            o[oi + 3] = s.frame;
            if (s.chainLength > 0) {
                System.arraycopy(s.chain, 0, frames, framesUsed, s.chainLength);
                framesUsed += s.chainLength;
            }
        }

        /** Sample {@code k} into {@code c}, as {@link #put} had it. */
        void get(int k, CurrentSample c) {
            int at = k * L;
            c.ip = d[at];
            c.time = d[at + 1];
            c.period = d[at + 2];
            c.offset = d[at + 3];
            c.chainId = d[at + 4];
            int wi = k * I;
            c.pid = w[wi];
            c.tid = w[wi + 1];
            c.cpu = w[wi + 2];
            c.misc = w[wi + 3];
            int chainLength = w[wi + 4];
            c.chainLength = chainLength;
            c.chainHash = w[wi + 5];
            c.chainHashed = (w[wi + 6] & 1) != 0;
            c.filtered = (w[wi + 6] & 2) != 0;
            int oi = k * O;
            c.event = (EventDesc) o[oi];
            c.thread = (PerfThread) o[oi + 1];
            c.comm = (String) o[oi + 2];
            c.frame = (Frame) o[oi + 3];
            if (chainLength > 0) {
                if (c.chain.length < chainLength) {
                    c.chain = new Frame[chainLength];
                }
                System.arraycopy(frames, w[wi + 7], c.chain, 0, chainLength);
            }
        }
    }

    private final SampleSink sink;
    private final ArrayBlockingQueue<Block> full = new ArrayBlockingQueue<>(BATCHES + 1);
    private final ArrayBlockingQueue<Block> free = new ArrayBlockingQueue<>(BATCHES);
    /** Blocks made so far: made as the aggregation falls behind, so a small file makes one or two. */
    private int made;
    private final Thread aggregator;
    /** What the aggregating thread threw; it then drops the batches that follow. */
    private volatile Throwable failure;
    private Block batch;

    public PipelinedSink(SampleSink sink) {
        this.sink = sink;
        batch = new Block();
        made = 1;
        aggregator = new Thread(this::drain, "jperf-aggregate");
        aggregator.setDaemon(true);
        aggregator.start();
    }

    /** Whether aggregating on a second thread can gain anything here (more than one core). */
    public static boolean worthIt() {
        return Runtime.getRuntime().availableProcessors() > 1;
    }

    @Override
    public void sample(CurrentSample s) {
        int n = s.chainLength;
        if (batch.full(n)) {
            hand(batch);
            batch = free.poll();
            if (batch == null && made < BATCHES) {
                batch = new Block();
                made++;
            } else if (batch == null) {
                batch = take(free);
            }
        }
        batch.put(s);
    }

    /** Hands over what is left and waits until the sink has had every sample. */
    public void finish() {
        batch.last = true;
        hand(batch);
        batch = null;
        try {
            aggregator.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while aggregating", e);
        }
        rethrow();
    }

    /** The session failed: the aggregating thread stops without the rest. */
    public void abort() {
        aggregator.interrupt();
    }

    private void hand(Block b) {
        try {
            full.put(b);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while aggregating", e);
        }
        rethrow();
    }

    private Block take(ArrayBlockingQueue<Block> q) {
        try {
            return q.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while aggregating", e);
        }
    }

    private void rethrow() {
        Throwable t = failure;
        if (t instanceof RuntimeException e) {
            throw e;
        } else if (t instanceof Error e) {
            throw e;
        } else if (t != null) {
            throw new IllegalStateException(t);
        }
    }

    /** The aggregating thread: every batch in order, each sample into one reused CurrentSample. */
    private void drain() {
        CurrentSample c = new CurrentSample();
        try {
            boolean last = false;
            while (!last) {
                Block b = full.take();
                last = b.last;
                if (failure == null) {
                    try {
                        replay(b, c);
                    } catch (Throwable t) {
                        failure = t;
                    }
                }
                b.n = 0;
                b.framesUsed = 0;
                free.put(b);
            }
        } catch (InterruptedException e) {
            // aborted: the session failed and says why
        }
    }

    private void replay(Block b, CurrentSample c) {
        for (int k = 0; k < b.n; k++) {
            b.get(k, c);
            sink.sample(c);
        }
    }
}
