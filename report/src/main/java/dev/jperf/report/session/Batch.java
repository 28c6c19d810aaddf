package dev.jperf.report.session;

import dev.jperf.format.header.EventDesc;
import dev.jperf.format.io.ByteSource;
import dev.jperf.format.record.SampleView;

/**
 * Records in delivery order, as flat arrays: what the reading thread hands to the resolving one.
 * An entry is either a sample (its fields as longs, the bytes holding its callchain and its event)
 * or a decoded record (a side-band record, a full {@code SampleRecord}, a BUILD_ID).
 */
final class Batch {
    static final int CAPACITY = 8192;
    /** longs per entry. */
    static final int L = 11;
    static final int TIME = 0;
    static final int IP = 1;
    static final int PID_TID = 2;
    static final int PERIOD = 3;
    /** cpu (high 32 bits), misc (low 16 bits). */
    static final int CPU_MISC = 4;
    static final int CALLCHAIN_NR = 5;
    static final int CALLCHAIN_AT = 6;
    static final int OFFSET = 7;
    /** Where the record starts in its ByteSource (to decode it in full when a consumer wants it). */
    static final int POSITION = 8;
    /** Where the sample's callchain was copied in {@link #raw}, or -1 (not copied). */
    static final int RAW_AT = 9;
    /** The copied callchain's {@link ChainCache#rawHash} (when {@link #RAW_AT} is not -1). */
    static final int RAW_HASH = 10;
    /** Longest callchain copied into {@link #raw}. */
    static final int MAX_COPIED = ChainCache.MAX_NR;

    final long[] d;
    /**
     * The callchains of the batch's samples, copied flat by the reader when asked to
     * ({@link #copyChain}): the resolving thread, the busier one, then reads plain longs.
     */
    long[] raw = new long[0];
    int rawUsed;
    /** Per entry: the record, or the sample's ByteSource; then the sample's EventDesc. */
    final Object[] o;
    int n;
    /** The reader's last batch. */
    boolean last;
    /** What stopped the reader, rethrown by the consumer. */
    Throwable error;

    Batch(int capacity) {
        d = new long[capacity * L];
        o = new Object[capacity * 2];
    }

    int capacity() {
        return o.length / 2;
    }

    boolean full() {
        return n == capacity();
    }

    void clear() {
        java.util.Arrays.fill(o, 0, 2 * n, null);
        n = 0;
        rawUsed = 0;
        last = false;
        error = null;
    }

    /** Packs the fields of a sample into entry slots {@code d[at..at+L)}, {@code o[2i..2i+1]}. */
    static void pack(SampleView v, long[] d, int at, Object[] o, int oi) {
        d[at + TIME] = v.time();
        d[at + IP] = v.ip();
        d[at + PID_TID] = ((long) v.pid() << 32) | (v.tid() & 0xffffffffL);
        d[at + PERIOD] = v.period();
        d[at + CPU_MISC] = ((long) v.cpu() << 32) | (v.misc() & 0xffff);
        d[at + CALLCHAIN_NR] = v.hasCallchain() ? v.callchainLength() : -1;
        d[at + CALLCHAIN_AT] = v.callchainPosition();
        d[at + OFFSET] = v.offset();
        d[at + POSITION] = v.position();
        d[at + RAW_AT] = -1;
        o[oi] = v.source();
        o[oi + 1] = v.event();
    }

    /** Copies the callchain of sample entry {@code e} into {@link #raw}; sets its {@link #RAW_AT}. */
    void copyChain(int e) {
        int at = e * L;
        int nr = (int) d[at + CALLCHAIN_NR];
        if (nr < 0 || nr > MAX_COPIED || !(o[2 * e] instanceof ByteSource src)) {
            d[at + RAW_AT] = -1;
            return;
        }
        if (rawUsed + nr > raw.length) {
            raw = java.util.Arrays.copyOf(raw, Math.max(rawUsed + nr, raw.length * 2 + 1024));
        }
        src.u64s(d[at + CALLCHAIN_AT], raw, rawUsed, nr);
        d[at + RAW_AT] = rawUsed;
        d[at + RAW_HASH] = ChainCache.rawHash(raw, rawUsed, nr);
        rawUsed += nr;
    }

    static boolean isSample(Object ref) {
        return ref instanceof ByteSource;
    }

    static EventDesc event(Object[] o, int i) {
        return (EventDesc) o[2 * i + 1];
    }
}
