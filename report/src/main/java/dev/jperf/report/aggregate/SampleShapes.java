package dev.jperf.report.aggregate;

import dev.jperf.report.session.Frame;
import dev.jperf.report.session.Arena;
import dev.jperf.format.collect.HashIndex;
import dev.jperf.report.session.IntArena;
import dev.jperf.report.session.RefArena;
import java.util.Arrays;

/**
 * Samples of the same shape: the same resolved frame, callchain (frame by frame: frames are shared
 * per mapping and address, so identity is equality) and comm/thread/CPU keys. Each shape's first
 * sample is looked up (its entries are created in perf's order) and the entries it reached are
 * kept with the shape; the samples that repeat it while the searches of those entries end where
 * they did (the hists' search tree's version, or no entry's path stamp above the shape's) reach
 * the same entries, and all they add there is a sum (period, count) or a maximum (depth), so they
 * are only counted, and added to those entries in bulk before anything reads them. Else a sample
 * is looked up again; only when it reaches other entries does the shape's pending weight go to
 * the old ones first.
 *
 * <p>Bulk adds change only which of the frames that match a call-graph position is the first
 * there; such frames print the same (same DSO and symbol, or same address).
 * Children mode walks every chain once per distinct entry of it (quadratic in its depth): this
 * turns that walk into one per distinct shape.
 */
final class SampleShapes {
    /**
     * Shapes kept before their pending weight is added and the table starts over (memory bound:
     * on a busy machine's file 128k shapes held ~20 MB more than 64k for 2 % fewer lookups, and
     * every MB kept is copied into the old generation once).
     */
    static final int MAX_SHAPES = 1 << 16;
    /** {@link #pend}: the sample was counted towards its shape. */
    static final int PENDED = -1;

    /** Adds a shape's pending samples to the entries its first sample reached. */
    interface Sink {
        /**
         * @param entries the sample's own entry, then each distinct entry of its chain:
         *     {@code entries[0..m)}
         * @param at where in the chain each of {@code entries} was reached (0 for the first), or
         *     null when the table keeps no positions
         */
        void add(Frame[] chain, int n, HistEntry[] entries, int[] at, int m, long period, long count);
    }

    private final int maxShapes;
    /** Whether where each entry was reached is kept (call graphs append from there; counts alone need not). */
    private final boolean positions;
    /*
     * The shape of the samples whose frame and chain came from the chain cache under one id
     * (CurrentSample.chainId): most samples, found with one read instead of hashing and comparing
     * their ~23 frames. Direct-mapped by the id's low bits; -1 is no id.
     */
    private final long[] chainIds = new long[1 << 16];
    private final int[] byChainId = new int[1 << 16];
    private final HashIndex index = new HashIndex();
    private int size;
    private Frame[] frames = new Frame[1 << 11];
    private int[] keys = new int[3 << 11];
    private int[] hashes = new int[1 << 11];
    private int[] versions = new int[1 << 11];
    /*
     * A shape's chain, entries and where they were reached are regions of arenas that live as long
     * as the table: no garbage per shape to promote (a busy machine's file has hundreds of
     * thousands of distinct chains), the same words as arrays of their own.
     */
    /** Shape i's chain: chainLength[i] frames at chainAt[i] in {@link #chainArena}. */
    private int[] chainAt = new int[1 << 11];
    private int[] chainLength = new int[1 << 11];
    /**
     * Shape i's entries: entryCount[i] (-1 before its first lookup) at entryAt[i] in
     * {@link #entryArena}, where each was reached at the same position in {@link #atArena} (the two
     * arenas allocate in step; without {@link #positions} the latter stays empty); room for entryRoom[i].
     */
    private int[] entryAt = new int[1 << 11];
    private int[] entryCount = new int[1 << 11];
    private int[] entryRoom = new int[1 << 11];
    private long[] periods = new long[1 << 11];
    private long[] counts = new long[1 << 11];
    private final RefArena<Frame> chainArena = new RefArena<>(Frame[]::new);
    private final RefArena<HistEntry> entryArena = new RefArena<>(HistEntry[]::new);
    private final IntArena atArena = new IntArena();
    /** A drained shape's chain and entries, whole arrays for the sink. */
    private Frame[] chainOut = new Frame[128];
    private HistEntry[] entriesOut = new HistEntry[128];
    private int[] atOut = new int[128];

    /** @param positions keep where each entry was reached (for call graphs) */
    SampleShapes(boolean positions) {
        this(MAX_SHAPES, positions);
    }

    SampleShapes(int maxShapes, boolean positions) {
        this.maxShapes = maxShapes;
        this.positions = positions;
        Arrays.fill(chainIds, -1);
    }

    /**
     * Counts a sample towards its shape when the shape is known at this {@code version} (returns
     * {@link #PENDED}); else returns the shape's slot, for which the caller looks the sample up and
     * calls {@link #reached}. {@code chainHash} is a function of {@code chain[0..n)} (the
     * sample's {@link dev.jperf.report.session.CurrentSample#callchainHash()}, whichever order the
     * chain is in here): the caller has it without reading the frames.
     */
    int pend(Frame frame, Frame[] chain, int n, int chainHash, long chainId, int comm, int tid, int cpu, long period,
            int version, Sink sink) {
        int b = (int) chainId & (byChainId.length - 1);
        if (chainId >= 0 && chainIds[b] == chainId) {
            int i = byChainId[b];
            if (keys[3 * i] == comm && keys[3 * i + 1] == tid && keys[3 * i + 2] == cpu) {
                return pend(i, period, version);
            }
        }
        int h = frame.hash() * 31 + n;
        h = h * 31 + comm;
        h = h * 31 + tid;
        h = h * 31 + cpu;
        h = h * 31 + chainHash;
        h ^= h >>> 16;
        int slot = index.first(h);
        for (int i; (i = index.entry(slot)) >= 0; slot = index.next(slot)) {
            if (hashes[i] == h && same(i, frame, chain, n, comm, tid, cpu)) {
                if (chainId >= 0) {
                    chainIds[b] = chainId;
                    byChainId[b] = i;
                }
                return pend(i, period, version);
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
        int at = chainArena.allocate(n);
        chainAt[i] = at;
        chainLength[i] = n;
        System.arraycopy(chain, 0, chainArena.chunk(at), Arena.offsetOf(at), n);
        entryRoom[i] = 0;
        keys[3 * i] = comm;
        keys[3 * i + 1] = tid;
        keys[3 * i + 2] = cpu;
        hashes[i] = h;
        versions[i] = -1; // no version yet: its first sample is looked up
        entryCount[i] = -1;
        periods[i] = 0;
        counts[i] = 0;
        index.put(slot, hashes);
        if (chainId >= 0) {
            chainIds[b] = chainId;
            byChainId[b] = i;
        }
        return i;
    }

    /** Counts a sample towards shape i when its entries' searches still hold, else returns i. */
    private int pend(int i, long period, int version) {
        if (versions[i] == version || (entryCount[i] >= 0 && searchesHold(i, versions[i]))) {
            versions[i] = version;
            periods[i] += period;
            counts[i]++;
            return PENDED;
        }
        // the search state changed since the shape's entries were found: this sample is looked up
        // again ({@link #reached})
        return i;
    }

    /**
     * What a sample of shape {@code slot} reached when looked up (the shape's first, or one after
     * the search state changed): counted as pending, at {@code version}. When the shape's entries
     * were others, what was pending goes to those first.
     */
    void reached(int slot, HistEntry[] reached, int[] where, int m, long period, int version, Sink sink) {
        if (!sameEntries(slot, reached, where, m)) {
            drain(slot, sink);
            if (m > entryRoom[slot]) {
                // a new region (a shape's entries change rarely: the old one waits for the flush)
                entryAt[slot] = entryArena.allocate(m);
                if (positions) {
                    atArena.allocate(m);
                }
                entryRoom[slot] = m;
            }
            int e = entryAt[slot];
            System.arraycopy(reached, 0, entryArena.chunk(e), Arena.offsetOf(e), m);
            if (positions) {
                System.arraycopy(where, 0, atArena.chunk(e), Arena.offsetOf(e), m);
            }
            entryCount[slot] = m;
        }
        versions[slot] = version;
        periods[slot] += period;
        counts[slot]++;
    }

    /**
     * Whether every entry of shape i still has its search end where it did at {@code version} (no
     * path to one changed since): then the shape's samples reach the same entries.
     */
    private boolean searchesHold(int i, int version) {
        HistEntry[] entries = entryArena.chunk(entryAt[i]);
        for (int e = Arena.offsetOf(entryAt[i]), end = e + entryCount[i]; e < end; e++) {
            if (entries[e].pathStamp > version) {
                return false;
            }
        }
        return true;
    }

    private boolean sameEntries(int slot, HistEntry[] reached, int[] where, int m) {
        if (entryCount[slot] != m) {
            return false;
        }
        HistEntry[] entries = entryArena.chunk(entryAt[slot]);
        int e = Arena.offsetOf(entryAt[slot]);
        for (int j = 0; j < m; j++) {
            if (entries[e + j] != reached[j]) {
                return false;
            }
        }
        if (positions) {
            int[] ats = atArena.chunk(entryAt[slot]);
            for (int j = 0; j < m; j++) {
                if (ats[e + j] != where[j]) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Adds every shape's pending samples and forgets the shapes. */
    void flush(Sink sink) {
        for (int i = 0; i < size; i++) {
            drain(i, sink);
            frames[i] = null;
        }
        chainArena.reset();
        entryArena.reset();
        atArena.reset();
        size = 0;
        index.clear();
        Arrays.fill(chainIds, -1);
    }

    private void drain(int i, Sink sink) {
        int m = entryCount[i];
        if (counts[i] > 0 && m >= 0) {
            int n = chainLength[i];
            if (chainOut.length < n) {
                chainOut = new Frame[n];
            }
            if (entriesOut.length < m) {
                entriesOut = new HistEntry[m];
                atOut = new int[m];
            }
            System.arraycopy(chainArena.chunk(chainAt[i]), Arena.offsetOf(chainAt[i]), chainOut, 0, n);
            System.arraycopy(entryArena.chunk(entryAt[i]), Arena.offsetOf(entryAt[i]), entriesOut, 0, m);
            if (positions) {
                System.arraycopy(atArena.chunk(entryAt[i]), Arena.offsetOf(entryAt[i]), atOut, 0, m);
            }
            sink.add(chainOut, n, entriesOut, positions ? atOut : null, m, periods[i], counts[i]);
            periods[i] = 0;
            counts[i] = 0;
        }
    }

    private boolean same(int i, Frame frame, Frame[] chain, int n, int comm, int tid, int cpu) {
        if (frames[i] != frame || chainLength[i] != n || keys[3 * i] != comm || keys[3 * i + 1] != tid
                || keys[3 * i + 2] != cpu) {
            return false;
        }
        Frame[] chains = chainArena.chunk(chainAt[i]);
        for (int k = 0, c = Arena.offsetOf(chainAt[i]); k < n; k++, c++) {
            if (chains[c] != chain[k]) {
                return false;
            }
        }
        return true;
    }

    private void grow() {
        int cap = frames.length * 2;
        frames = Arrays.copyOf(frames, cap);
        keys = Arrays.copyOf(keys, 3 * cap);
        hashes = Arrays.copyOf(hashes, cap);
        versions = Arrays.copyOf(versions, cap);
        chainAt = Arrays.copyOf(chainAt, cap);
        chainLength = Arrays.copyOf(chainLength, cap);
        entryAt = Arrays.copyOf(entryAt, cap);
        entryCount = Arrays.copyOf(entryCount, cap);
        entryRoom = Arrays.copyOf(entryRoom, cap);
        periods = Arrays.copyOf(periods, cap);
        counts = Arrays.copyOf(counts, cap);
    }
}
