package dev.jperf.report.aggregate;

import dev.jperf.report.session.Frame;
import dev.jperf.report.session.HashIndex;
import java.util.Arrays;

/**
 * Samples of the same shape: the same resolved frame, callchain (frame by frame: frames are shared
 * per mapping and address, so identity is equality) and comm/thread/CPU keys. Such samples reach
 * the same hist entries and the same call-graph positions, and everything they add there is a sum
 * (period, count) or a maximum (depth), so a repeated shape only needs its period and count kept
 * and added once, in bulk, before the entries are read. The first sample of a shape is added as
 * it comes, so entries are created, and call-graph positions first seen, in perf's order.
 *
 * <p>Children mode walks every chain once per distinct entry of it (quadratic in its depth): this
 * turns that walk into one per distinct shape.
 */
final class SampleShapes {
    /** Shapes kept before their pending weight is flushed and the table starts over (memory bound). */
    static final int MAX_SHAPES = 1 << 17;

    private final int maxShapes;

    /** Adds one shape's pending weight to the entries (the bulk form of {@link Hists#add}). */
    interface Sink {
        void add(Frame frame, Frame[] chain, int n, int comm, int tid, int cpu, long period, long count);
    }

    private final HashIndex index = new HashIndex();
    private int size;
    private Frame[] frames = new Frame[1 << 11];
    private Frame[][] chains = new Frame[1 << 11][];
    private int[] keys = new int[3 << 11];
    private int[] hashes = new int[1 << 11];
    private long[] periods = new long[1 << 11];
    private long[] counts = new long[1 << 11];

    SampleShapes() {
        this(MAX_SHAPES);
    }

    SampleShapes(int maxShapes) {
        this.maxShapes = maxShapes;
    }

    /**
     * Counts a sample towards its shape when the shape is known (returns true: nothing else to do
     * now); else remembers the shape and returns false (the caller adds the sample itself).
     */
    boolean pend(Frame frame, Frame[] chain, int n, int comm, int tid, int cpu, long period, Sink sink) {
        int h = System.identityHashCode(frame) * 31 + n;
        h = h * 31 + comm;
        h = h * 31 + tid;
        h = h * 31 + cpu;
        for (int i = 0; i < n; i++) {
            h = h * 31 + System.identityHashCode(chain[i]);
        }
        h ^= h >>> 16;
        int slot = index.first(h);
        for (int i; (i = index.entry(slot)) >= 0; slot = index.next(slot)) {
            if (hashes[i] == h && same(i, frame, chain, n, comm, tid, cpu)) {
                periods[i] += period;
                counts[i]++;
                return true;
            }
        }
        if (size == maxShapes) {
            flush(sink);
            slot = index.first(h);
        }
        int i = size++;
        if (i == frames.length) {
            grow();
        }
        frames[i] = frame;
        chains[i] = Arrays.copyOf(chain, n);
        keys[3 * i] = comm;
        keys[3 * i + 1] = tid;
        keys[3 * i + 2] = cpu;
        hashes[i] = h;
        index.put(slot, i, hashes);
        return false;
    }

    /** Adds every shape's pending weight and forgets the shapes. */
    void flush(Sink sink) {
        for (int i = 0; i < size; i++) {
            if (counts[i] > 0) {
                Frame[] c = chains[i];
                sink.add(frames[i], c, c.length, keys[3 * i], keys[3 * i + 1], keys[3 * i + 2], periods[i], counts[i]);
            }
            frames[i] = null;
            chains[i] = null;
            periods[i] = 0;
            counts[i] = 0;
        }
        size = 0;
        index.clear();
    }

    private boolean same(int i, Frame frame, Frame[] chain, int n, int comm, int tid, int cpu) {
        Frame[] c = chains[i];
        if (frames[i] != frame || c.length != n || keys[3 * i] != comm || keys[3 * i + 1] != tid
                || keys[3 * i + 2] != cpu) {
            return false;
        }
        for (int k = 0; k < n; k++) {
            if (c[k] != chain[k]) {
                return false;
            }
        }
        return true;
    }

    private void grow() {
        int cap = frames.length * 2;
        frames = Arrays.copyOf(frames, cap);
        chains = Arrays.copyOf(chains, cap);
        keys = Arrays.copyOf(keys, 3 * cap);
        hashes = Arrays.copyOf(hashes, cap);
        periods = Arrays.copyOf(periods, cap);
        counts = Arrays.copyOf(counts, cap);
    }
}
