package dev.jperf.report.session;

import dev.jperf.format.collect.HashIndex;
import java.util.Arrays;

/**
 * Resolved samples by their raw values: thread, cpumode, ip and callchain addresses. Most samples
 * repeat one seen shortly before (a loop, a call path), so their frames are copied from here
 * instead of looked up address by address. An entry holds while the maps it was resolved against
 * are unchanged: the thread's map group (same object, same version) and the kernel's.
 */
final class ChainCache {
    /** Entries kept before the cache starts over (memory bound). */
    static final int MAX_ENTRIES = 1 << 16;
    /** Longest callchain cached; longer ones are resolved each time. */
    static final int MAX_NR = 256;

    private final HashIndex index = new HashIndex();
    private int size;
    private PerfThread[] threads = new PerfThread[1 << 11];
    private MapGroup[] groups = new MapGroup[1 << 11];
    private int[] versions = new int[2 << 11];
    private int[] modes = new int[1 << 11];
    private int[] hashes = new int[1 << 11];
    private long[] ips = new long[1 << 11];
    private Frame[] frames = new Frame[1 << 11];
    /*
     * The entries' raw and resolved chains are regions of two arenas that live as long as the
     * cache: a busy machine's file has hundreds of thousands of distinct chains, and arrays of
     * their own were garbage promoted to the old generation by the time the cache started over.
     */
    /** Entry i's raw callchain: rawLength[i] addresses at rawAt[i] in {@link #rawArena}. */
    private int[] rawAt = new int[1 << 11];
    private int[] rawLength = new int[1 << 11];
    /** Entry i's resolved chain: chainLength[i] frames at chainAt[i] in {@link #chainArena}. */
    private int[] chainAt = new int[1 << 11];
    private int[] chainLength = new int[1 << 11];
    /** Entry i's resolved chain's {@link Frame#hashOf}. */
    private int[] chainHashes = new int[1 << 11];
    /** Entry i's {@link #serial}: a number no other entry, nor this one before a put, had. */
    private long[] serials = new long[1 << 11];
    private long nextSerial;
    private int lastPut;
    private final LongArena rawArena = new LongArena();
    private final RefArena<Frame> chainArena = new RefArena<>(Frame[]::new);
    /** Bumped when the cache starts over: threads' {@link PerfThread#chainEntry} of before are void. */
    private int epoch;
    /** Slot of the last {@link #find} miss: where {@link #put} goes. */
    private int missSlot;
    private int missHash;

    /**
     * A hash of a raw callchain {@code raw[off..off+nr)}: the reading thread computes it as it
     * copies the chain into a batch ({@link Batch#copyChain}), off the resolving thread.
     */
    static long rawHash(long[] raw, int off, int nr) {
        long h = nr;
        for (int i = off, end = off + nr; i < end; i++) {
            h = h * 0x9E3779B97F4A7C15L + raw[i];
        }
        return h;
    }

    private static int hash(PerfThread thread, int mode, long ip, long rawHash) {
        // the thread by its ids (entries compare it by identity): identityHashCode is a call into the VM under C1
        long h = ((long) thread.pid() << 32 | thread.tid() & 0xffffffffL) * 31L + mode;
        h = (h * 0x9E3779B97F4A7C15L + ip) * 0xC2B2AE3D27D4EB4FL + rawHash;
        return (int) (h ^ (h >>> 32));
    }

    /**
     * The entry of these raw values ({@code raw[off..off+nr)} the callchain, {@code rawHash} its
     * {@link #rawHash}), still valid, or -1 (then {@link #put} may follow).
     */
    int find(PerfThread thread, int mode, long ip, long[] raw, int off, int nr, long rawHash, MapGroup kernel) {
        int h = hash(thread, mode, ip, rawHash);
        int slot = index.first(h);
        for (int i; (i = index.entry(slot)) >= 0; slot = index.next(slot)) {
            if (hashes[i] == h && threads[i] == thread && modes[i] == mode && ips[i] == ip && rawLength[i] == nr
                    && sameRaw(i, raw, off, nr)) {
                if (current(i, thread, kernel)) {
                    thread.chainEntry = i;
                    thread.chainEpoch = epoch;
                    return i;
                }
                // stale: resolve again and let put() overwrite this entry (same raw values)
                missSlot = -(i + 1);
                missHash = h;
                return -1;
            }
        }
        missSlot = slot;
        missHash = h;
        return -1;
    }

    /** Remembers what the last missed {@link #find} resolved to. */
    void put(PerfThread thread, int mode, long ip, long[] raw, int off, int nr, MapGroup kernel, Frame frame,
            Frame[] chain, int length, int chainHash) {
        int i;
        if (missSlot < 0) {
            i = -missSlot - 1;
        } else {
            if (size == MAX_ENTRIES) {
                clear();
                // the missed key's slot in the emptied table
                missSlot = index.first(missHash);
            }
            i = size++;
            if (i == threads.length) {
                grow();
            }
            int at = rawArena.allocate(nr);
            rawAt[i] = at;
            rawLength[i] = nr;
            System.arraycopy(raw, off, rawArena.chunk(at), Arena.offsetOf(at), nr);
            chainLength[i] = -1;
        }
        threads[i] = thread;
        groups[i] = thread.maps();
        versions[2 * i] = thread.maps().version();
        versions[2 * i + 1] = kernel.version();
        modes[i] = mode;
        hashes[i] = missHash;
        ips[i] = ip;
        frames[i] = frame;
        if (length > chainLength[i]) {
            // a new region, unless a stale entry's new chain fits in its old one
            chainAt[i] = chainArena.allocate(length);
        }
        System.arraycopy(chain, 0, chainArena.chunk(chainAt[i]), Arena.offsetOf(chainAt[i]), length);
        chainLength[i] = length;
        chainHashes[i] = chainHash;
        serials[i] = nextSerial++;
        if (missSlot >= 0) {
            index.put(missSlot, hashes);
        }
        thread.chainEntry = i;
        thread.chainEpoch = epoch;
        lastPut = i;
    }

    /** Whether entry i was resolved against the maps as they are now. */
    private boolean current(int i, PerfThread thread, MapGroup kernel) {
        return groups[i] == thread.maps() && versions[2 * i] == thread.maps().version()
                && versions[2 * i + 1] == kernel.version();
    }

    /**
     * The entry of the thread's last sample while it holds (same maps), or -1: a new chain of a
     * thread mostly shares its outer callers with the one before.
     */
    int last(PerfThread thread, MapGroup kernel) {
        int i = thread.chainEntry;
        return thread.chainEpoch == epoch && i >= 0 && i < size && threads[i] == thread && current(i, thread, kernel)
                ? i
                : -1;
    }

    /** How many of entry i's raw callchain's last (outermost) addresses end {@code raw[0..nr)} too. */
    int commonSuffix(int i, long[] raw, int nr) {
        long[] r = rawArena.chunk(rawAt[i]);
        int from = Arena.offsetOf(rawAt[i]);
        int a = nr;
        int b = rawLength[i];
        while (a > 0 && b > 0 && raw[a - 1] == r[from + b - 1]) {
            a--;
            b--;
        }
        return nr - a;
    }

    /** Entry i's raw callchain: its length. */
    int rawLength(int i) {
        return rawLength[i];
    }

    /** Entry i's raw callchain's address {@code k} (innermost first). */
    long raw(int i, int k) {
        return rawArena.chunk(rawAt[i])[Arena.offsetOf(rawAt[i]) + k];
    }

    /** Entry i's resolved chain's length. */
    int chainLength(int i) {
        return chainLength[i];
    }

    /** Entry i's resolved chain's frame {@code k} (caller first). */
    Frame chainFrame(int i, int k) {
        return chainArena.chunk(chainAt[i])[Arena.offsetOf(chainAt[i]) + k];
    }

    Frame frame(int i) {
        return frames[i];
    }

    /** Copies entry i's resolved chain (caller first) into {@code out}; returns its length. */
    int chain(int i, Frame[] out) {
        System.arraycopy(chainArena.chunk(chainAt[i]), Arena.offsetOf(chainAt[i]), out, 0, chainLength[i]);
        return chainLength[i];
    }

    int chainHash(int i) {
        return chainHashes[i];
    }

    /**
     * Entry i's resolution's serial number: two samples given the same one have the same frame
     * and chain (objects), whichever entry they came from.
     */
    long serial(int i) {
        return serials[i];
    }

    /** The entry the last {@link #put} filled. */
    int lastPut() {
        return lastPut;
    }

    private boolean sameRaw(int i, long[] raw, int off, int nr) {
        int at = rawAt[i];
        int from = Arena.offsetOf(at);
        return Arrays.equals(rawArena.chunk(at), from, from + nr, raw, off, off + nr);
    }

    private void clear() {
        index.clear();
        Arrays.fill(threads, 0, size, null);
        Arrays.fill(groups, 0, size, null);
        Arrays.fill(frames, 0, size, null);
        chainArena.reset();
        rawArena.reset();
        size = 0;
        epoch++;
    }

    private void grow() {
        int cap = threads.length * 2;
        threads = Arrays.copyOf(threads, cap);
        groups = Arrays.copyOf(groups, cap);
        versions = Arrays.copyOf(versions, 2 * cap);
        modes = Arrays.copyOf(modes, cap);
        hashes = Arrays.copyOf(hashes, cap);
        ips = Arrays.copyOf(ips, cap);
        frames = Arrays.copyOf(frames, cap);
        rawAt = Arrays.copyOf(rawAt, cap);
        rawLength = Arrays.copyOf(rawLength, cap);
        chainAt = Arrays.copyOf(chainAt, cap);
        chainLength = Arrays.copyOf(chainLength, cap);
        chainHashes = Arrays.copyOf(chainHashes, cap);
        serials = Arrays.copyOf(serials, cap);
    }
}
