package dev.jperf.report.session;

import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.SampleView;
import java.util.Arrays;

/**
 * perf's ordered-events queue: kernel records are queued by time and released at each
 * FINISHED_ROUND up to the largest time seen at the previous round (a record written in pass n+1
 * can be older than one of pass n, nothing later can be older than pass n's maximum). Records of
 * equal time keep their file order. Records without a time (0 or -1) are delivered at once, as
 * perf delivers them.
 *
 * <p>Samples are kept as flat fields (no object per sample; their callchains stay in the bytes
 * they were read from) and released into {@link Batch}es, in delivery order. An entry stays in
 * the slot it was queued into until it is delivered (then the slot is free for another): what
 * moves at a flush is slot numbers. The entries not delivered at a flush are kept in time order,
 * and those queued since arrived in ascending runs (typically one per CPU buffer of the round),
 * whose starts are noted as they arrive, so a flush merges known runs.
 */
final class OrderedEvents {
    /** Where full batches go; returns the empty batch to fill next. */
    interface Out {
        Batch emit(Batch full);
    }

    private static final int L = Batch.L;

    private final Out out;
    private boolean copyChains;
    private boolean live;
    private Batch batch;
    /** Per slot: the entry's fields ({@link Batch}'s layout) and its objects; its time apart, for the merge. */
    private long[] d = new long[1024 * L];
    private Object[] o = new Object[1024 * 2];
    private long[] times = new long[1024];
    /** Slots ever used; free ones below it are on the {@link #free} stack. */
    private int slots;
    private int[] free = new int[1024];
    private int freeCount;
    /** The queue's slots: the first {@link #kept} in time order, then the ones queued since, in arrival order. */
    private int[] queue = new int[1024];
    private int n;
    private int kept;
    /** Where each ascending run of the arrivals starts in {@link #queue} (after the kept ones). */
    private int[] runs = new int[64];
    private int runCount;
    private long lastTime;
    private long maxTime;
    private long nextFlush;
    private int[] tmp = new int[1024];
    private int[] runsTmp = new int[64];

    OrderedEvents(Out out, Batch first) {
        this.out = out;
        this.batch = first;
    }

    /** A sample decoded into {@code v} (copied out: the view may be reused at once). */
    void queueSample(SampleView v) {
        long time = v.time();
        if (time == 0 || time == -1) {
            immediateSample(v);
            return;
        }
        int slot = slot();
        Batch.pack(v, d, slot * L, o, 2 * slot);
        added(slot, time);
    }

    /** A sample delivered now, before everything still queued. */
    void immediateSample(SampleView v) {
        Batch b = room();
        Batch.pack(v, b.d, b.n * L, b.o, 2 * b.n);
        if (copyChains) {
            b.copyChain(b.n);
        }
        b.n++;
    }

    /** The resolver reads callchains from the batches: copy them there (see {@link Batch#raw}). */
    /**
     * A live stream (top): what a round flushes goes to the resolving thread at once, not when a
     * batch is full, so a refresh shows the samples up to the last round.
     */
    void live() {
        live = true;
    }

    void copyChains() {
        copyChains = true;
    }

    /** A decoded record with its time. */
    void queue(PerfRecord r, long time) {
        if (time == 0 || time == -1) {
            immediate(r);
            return;
        }
        int slot = slot();
        d[slot * L + Batch.TIME] = time;
        o[2 * slot] = r;
        o[2 * slot + 1] = null;
        added(slot, time);
    }

    /** A record delivered now, before everything still queued (as perf processes it on reading). */
    void immediate(PerfRecord r) {
        Batch b = room();
        b.d[b.n * L + Batch.TIME] = 0;
        b.o[2 * b.n] = r;
        b.o[2 * b.n + 1] = null;
        b.n++;
    }

    /** PERF_RECORD_FINISHED_ROUND. */
    void finishedRound() {
        flush(nextFlush);
        nextFlush = maxTime;
        if (live && batch.n > 0) {
            batch = out.emit(batch);
        }
    }

    /** End of input: everything, in order, and the last batch emitted. */
    void finish() {
        flush(-1L);
        batch.last = true;
        out.emit(batch);
        batch = null;
    }

    /** A free slot (the queue grows by one entry). */
    private int slot() {
        if (freeCount > 0) {
            return free[--freeCount];
        }
        if (slots == times.length) {
            int cap = slots * 2;
            d = Arrays.copyOf(d, cap * L);
            o = Arrays.copyOf(o, cap * 2);
            times = Arrays.copyOf(times, cap);
            free = new int[cap];
            queue = Arrays.copyOf(queue, cap);
            tmp = new int[cap];
        }
        return slots++;
    }

    private void added(int slot, long time) {
        times[slot] = time;
        if (n == kept || Long.compareUnsigned(time, lastTime) < 0) {
            if (runCount == runs.length) {
                runs = Arrays.copyOf(runs, runCount * 2);
                runsTmp = new int[runs.length];
            }
            runs[runCount++] = n;
        }
        lastTime = time;
        if (Long.compareUnsigned(time, maxTime) > 0) {
            maxTime = time;
        }
        queue[n++] = slot;
    }

    private Batch room() {
        if (batch.full()) {
            batch = out.emit(batch);
        }
        return batch;
    }

    private void flush(long limit) {
        if (n == 0) {
            return;
        }
        int[] q = sort();
        int k = 0;
        for (; k < n; k++) {
            int i = q[k];
            if (Long.compareUnsigned(times[i], limit) > 0) {
                break;
            }
            Batch b = room();
            System.arraycopy(d, i * L, b.d, b.n * L, L);
            b.o[2 * b.n] = o[2 * i];
            b.o[2 * b.n + 1] = o[2 * i + 1];
            o[2 * i] = null;
            o[2 * i + 1] = null;
            if (copyChains) {
                b.copyChain(b.n);
            }
            b.n++;
            free[freeCount++] = i;
        }
        n -= k;
        System.arraycopy(q, k, queue, 0, n);
        kept = n;
        runCount = 0;
    }

    /**
     * The queue's slots in time order, stable: the kept entries (one run) and the arrivals' runs
     * merged pairwise, ties to the earlier run. Returns {@link #queue} or {@link #tmp}.
     */
    private int[] sort() {
        int count = runCount;
        if (kept > 0) {
            // the kept entries are the first run (the arrivals' first run starts after them)
            if (count == runs.length) {
                runs = Arrays.copyOf(runs, count * 2);
                runsTmp = new int[runs.length];
            }
            System.arraycopy(runs, 0, runs, 1, count);
            runs[0] = 0;
            count++;
        }
        int[] a = queue;
        int[] b = tmp;
        int[] starts = runs;
        int[] next = runsTmp;
        while (count > 1) {
            int m = 0;
            for (int r = 0; r < count; r += 2) {
                int lo = starts[r];
                int mid = r + 1 < count ? starts[r + 1] : n;
                int hi = r + 2 < count ? starts[r + 2] : n;
                next[m++] = lo;
                merge(a, b, lo, mid, hi);
            }
            int[] t = a;
            a = b;
            b = t;
            t = starts;
            starts = next;
            next = t;
            count = m;
        }
        runs = starts;
        runsTmp = next;
        return a;
    }

    /** Merges {@code a[lo..mid)} and {@code a[mid..hi)}, each in time order, into {@code b[lo..hi)}. */
    private void merge(int[] a, int[] b, int lo, int mid, int hi) {
        long[] t = times;
        int x = lo;
        int y = mid;
        int at = lo;
        if (y < hi && x < mid) {
            long tx = t[a[x]];
            long ty = t[a[y]];
            while (true) {
                if (Long.compareUnsigned(ty, tx) < 0) {
                    b[at++] = a[y++];
                    if (y == hi) {
                        break;
                    }
                    ty = t[a[y]];
                } else {
                    b[at++] = a[x++];
                    if (x == mid) {
                        break;
                    }
                    tx = t[a[x]];
                }
            }
        }
        System.arraycopy(a, x, b, at, mid - x);
        at += mid - x;
        System.arraycopy(a, y, b, at, hi - y);
    }
}
