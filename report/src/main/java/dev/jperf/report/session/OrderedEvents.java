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
 * they were read from) and released into {@link Batch}es, in delivery order.
 */
final class OrderedEvents {
    /** Where full batches go; returns the empty batch to fill next. */
    interface Out {
        Batch emit(Batch full);
    }

    private static final int L = Batch.L;

    private final Out out;
    private boolean copyChains;
    private Batch batch;
    private long[] d = new long[1024 * L];
    private Object[] o = new Object[1024 * 2];
    private int n;
    private long lastTime;
    private boolean sorted = true;
    private long maxTime;
    private long nextFlush;
    /** The other pair of arrays the entries left after a flush are copied into (swapped each time). */
    private long[] spareD = new long[0];
    private Object[] spareO = new Object[0];
    private int[] order = new int[0];
    private int[] tmp = new int[0];

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
        grow();
        Batch.pack(v, d, n * L, o, 2 * n);
        added(time);
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
    void copyChains() {
        copyChains = true;
    }

    /** A decoded record with its time. */
    void queue(PerfRecord r, long time) {
        if (time == 0 || time == -1) {
            immediate(r);
            return;
        }
        grow();
        d[n * L + Batch.TIME] = time;
        o[2 * n] = r;
        o[2 * n + 1] = null;
        added(time);
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
    }

    /** End of input: everything, in order, and the last batch emitted. */
    void finish() {
        flush(-1L);
        batch.last = true;
        out.emit(batch);
        batch = null;
    }

    private void added(long time) {
        if (n > 0 && Long.compareUnsigned(time, lastTime) < 0) {
            sorted = false;
        }
        lastTime = time;
        if (Long.compareUnsigned(time, maxTime) > 0) {
            maxTime = time;
        }
        n++;
    }

    private void grow() {
        if ((n + 1) * 2 > o.length) {
            d = Arrays.copyOf(d, d.length * 2);
            o = Arrays.copyOf(o, o.length * 2);
        }
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
        int[] ord = sorted ? null : sortOrder();
        int k = 0;
        for (; k < n; k++) {
            int i = ord == null ? k : ord[k];
            if (Long.compareUnsigned(d[i * L + Batch.TIME], limit) > 0) {
                break;
            }
            Batch b = room();
            System.arraycopy(d, i * L, b.d, b.n * L, L);
            b.o[2 * b.n] = o[2 * i];
            b.o[2 * b.n + 1] = o[2 * i + 1];
            if (copyChains) {
                b.copyChain(b.n);
            }
            b.n++;
        }
        int left = n - k;
        if (ord == null) {
            System.arraycopy(d, k * L, d, 0, left * L);
            System.arraycopy(o, 2 * k, o, 0, 2 * left);
            Arrays.fill(o, 2 * left, 2 * n, null);
        } else {
            // reuse the spare arrays (fresh ones each flush were promoted by the collector)
            int cap = Math.max(left, 1024);
            long[] d2 = spareD.length >= cap * L ? spareD : new long[Math.max(cap, d.length / L) * L];
            Object[] o2 = spareO.length >= cap * 2 ? spareO : new Object[d2.length / L * 2];
            for (int j = 0; j < left; j++) {
                int i = ord[k + j];
                System.arraycopy(d, i * L, d2, j * L, L);
                o2[2 * j] = o[2 * i];
                o2[2 * j + 1] = o[2 * i + 1];
            }
            Arrays.fill(o, 0, 2 * n, null);
            spareD = d;
            spareO = o;
            d = d2;
            o = o2;
        }
        n = left;
        sorted = true;
        if (n > 0) {
            lastTime = d[(n - 1) * L + Batch.TIME];
        }
    }

    /** The entries' stable order by time: a merge of the ascending runs (one per CPU buffer, typically). */
    private int[] sortOrder() {
        if (order.length < n) {
            order = new int[Math.max(n, order.length * 2)];
            tmp = new int[order.length];
        }
        int[] a = order;
        int[] b = tmp;
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        while (runEnd(a, 0) < n) {
            // one pass merges neighbouring ascending runs; ties take the left (earlier) one
            int i = 0;
            int at = 0;
            while (i < n) {
                int mid = runEnd(a, i);
                if (mid == n) {
                    System.arraycopy(a, i, b, at, n - i);
                    break;
                }
                int hi = runEnd(a, mid);
                int x = i;
                int y = mid;
                while (x < mid && y < hi) {
                    b[at++] = Long.compareUnsigned(d[a[y] * L], d[a[x] * L]) < 0 ? a[y++] : a[x++];
                }
                while (x < mid) {
                    b[at++] = a[x++];
                }
                while (y < hi) {
                    b[at++] = a[y++];
                }
                i = hi;
            }
            int[] t = a;
            a = b;
            b = t;
        }
        order = a;
        tmp = b;
        return a;
    }

    /** End of the ascending run of {@code a} that starts at {@code i}. */
    private int runEnd(int[] a, int i) {
        int j = i + 1;
        while (j < n && Long.compareUnsigned(d[a[j] * L], d[a[j - 1] * L]) >= 0) {
            j++;
        }
        return j;
    }
}
