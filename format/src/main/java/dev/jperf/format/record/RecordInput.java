package dev.jperf.format.record;

import dev.jperf.format.PerfDataException;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.io.ByteSource;

/**
 * One record being decoded: its bytes, its header, the events it may belong to, and the checks
 * every layout makes, so that each record type's {@code decode} reads like its struct (offsets
 * count from the record's header). A record whose body does not fit its size raises
 * {@link PerfDataException}; nothing is read or allocated beyond the record.
 */
final class RecordInput {
    private static final long[] NO_LONGS = new long[0];

    final String name;
    final EventRegistry events;
    final ByteSource src;
    /** Where the header is in {@link #src}. */
    final long pos;
    final long end;
    /** What {@link PerfRecord#offset()} reports. */
    final long offset;
    final int type;
    final int misc;
    final int size;
    /** Where the sample_id trailer starts (the end while there is none). */
    private long trailerAt;
    /** The next field of a sequential read ({@link #next}), absolute. */
    private long cursor;

    RecordInput(String name, EventRegistry events, ByteSource src, long pos, long offset) {
        this.name = name;
        this.events = events;
        this.src = src;
        this.pos = pos;
        this.offset = offset;
        this.type = src.s32(pos);
        this.misc = src.u16(pos + 4);
        this.size = src.u16(pos + 6);
        this.end = pos + size;
        this.trailerAt = end;
        this.cursor = pos + 8;
    }

    int u8(long off) {
        return src.u8(pos + off);
    }

    int u16(long off) {
        return src.u16(pos + off);
    }

    int s32(long off) {
        return src.s32(pos + off);
    }

    long u32(long off) {
        return src.u32(pos + off);
    }

    long u64(long off) {
        return src.u64(pos + off);
    }

    byte[] bytes(long off, int n) {
        return src.bytes(pos + off, n);
    }

    long[] u64s(long off, int n) {
        return n == 0 ? NO_LONGS : src.u64s(pos + off, n);
    }

    String cString(long off, long maxLen) {
        return src.cString(pos + off, maxLen);
    }

    /** The first NUL at or after {@code off} within the record, counted from the header ({@link #size} if none). */
    long indexOfNul(long off) {
        return src.indexOfNul(pos + off, end) - pos;
    }

    ByteSource slice(long off, long len) {
        return src.slice(pos + off, len);
    }

    /** Bytes before the trailer, header included ({@link #size} without a trailer). */
    long body() {
        return trailerAt - pos;
    }

    /** The record must hold {@code len} bytes. */
    void need(long len) {
        need(len, end);
    }

    /** The record must hold {@code len} bytes before its trailer. */
    void needBody(long len) {
        need(len, trailerAt);
    }

    private void need(long len, long limit) {
        if (pos + len > limit) {
            throw bad("too short (needs " + len + " bytes)");
        }
    }

    /** A count of {@code entry}-byte entries that must fit in {@code room} bytes. */
    int count(long nr, long room, int entry) {
        if (nr < 0 || nr > room / entry) {
            throw bad("nr " + Long.toUnsignedString(nr) + " does not fit");
        }
        return (int) nr;
    }

    PerfDataException bad(String what) {
        return bad(name, src, pos, type, what);
    }

    static PerfDataException bad(String name, ByteSource src, long pos, int type, String what) {
        return new PerfDataException(name + ": record " + RecordType.name(type) + " at 0x" + Long.toHexString(pos)
                + " (size " + src.u16(pos + 6) + "): " + what);
    }

    // sequential reads, for the variable parts of SAMPLE and READ records

    /** Continues sequential reads at {@code off} (from the header). */
    void seek(long off) {
        cursor = pos + off;
    }

    /** Where the next sequential read is, from the header. */
    long at() {
        return cursor - pos;
    }

    /** The next u64 of a sequential read, which must end by {@code limit} (from the header). */
    long next(long limit) {
        long p = cursor;
        need(p + 8 - pos, pos + limit);
        cursor = p + 8;
        return src.u64(p);
    }

    /** The next u64 of a sequential read within the record. */
    long next() {
        return next(size);
    }

    /** Skips {@code n} bytes of a sequential read (the caller checked they are there). */
    void skip(long n) {
        cursor += n;
    }

    // the sample_id trailer of kernel records

    /**
     * The record's event and trailer (perf's is_pos rule), the trailer read from the end of the
     * record; {@link #body()} then ends where the trailer starts.
     */
    SampleId trailer() {
        EventDesc e = events.nonSampleEvent(src, pos, end);
        if (e == null || !e.attr().sampleIdAll()) {
            trailerAt = end;
            return e == null ? SampleId.NONE : new SampleId(-1, -1, -1, -1, -1, -1, e);
        }
        int ts = events.layout(e.index()).sampleIdSize();
        if (end - pos - 8 < ts) {
            throw bad("too short for its sample_id trailer (" + ts + " bytes)");
        }
        trailerAt = end - ts;
        return SampleId.decode(src, trailerAt, e);
    }

    /**
     * The trailer read forward from {@code at} (from the header), right after the body (KSYMBOL,
     * BPF_EVENT: the kernel may inflate header.size, spec §6); from the end when it does not fit.
     */
    SampleId trailerAt(long at) {
        EventDesc e = events.nonSampleEvent(src, pos, end);
        if (e == null || !e.attr().sampleIdAll()) {
            trailerAt = pos + at;
            return e == null ? SampleId.NONE : new SampleId(-1, -1, -1, -1, -1, -1, e);
        }
        int ts = events.layout(e.index()).sampleIdSize();
        if (pos + at + ts > end) {
            // not enough room after the body: fall back to the end, as perf reads it
            return trailer();
        }
        trailerAt = pos + at;
        return SampleId.decode(src, trailerAt, e);
    }
}
