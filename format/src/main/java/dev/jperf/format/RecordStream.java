package dev.jperf.format;

import dev.jperf.format.header.EventDesc;
import dev.jperf.format.io.ByteSource;
import dev.jperf.format.record.AuxtraceRecord;
import dev.jperf.format.record.CompressedRecord;
import dev.jperf.format.record.EventRegistry;
import dev.jperf.format.record.EventUpdateRecord;
import dev.jperf.format.record.HeaderFeatureRecord;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.RecordDecoder;
import dev.jperf.format.record.RecordType;
import dev.jperf.format.record.SampleView;
import dev.jperf.format.record.TracingDataRecord;
import dev.jperf.format.record.UnknownRecord;
import java.nio.ByteOrder;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Consumer;

/**
 * The records of a {@link PerfDataFile}, decoded one at a time straight from the mapped file (or
 * the stream buffer): nothing but the current record is held.
 *
 * <p>One cursor: {@link #advance(SampleView)} moves to the next record and {@link #current()}
 * is that record; samples may be decoded into a reusable {@link SampleView} instead of an
 * object (a null view: every record in full). {@link #hasNext()} / {@link #next()} are the same
 * cursor as an {@link Iterator} (hasNext reads one record ahead, decoded in full), not a second
 * reader: which to use is a matter of the caller.
 * <ul>
 * <li>The cursor is for the hot path, readers of millions of samples (report's session): a
 * sample read into a view allocates nothing, and a loop over {@code advance} has no look-ahead
 * to undo.
 * <li>The Iterator is for everyone else: tools that see each record once (report's stats and
 * raw dump, the copier, which also takes {@link #raw()}), the reading API's
 * {@code RecordingFile}, whose time order is an Iterator over this one, and the tests. Their
 * records are decoded in full anyway, so the look-ahead costs nothing, and a plain
 * {@code while (hasNext())} loop is the idiom every reader of Java knows.
 * </ul>
 * The two may be mixed on one stream (a record read ahead by hasNext is the one advance then
 * gives), which is all the adapter adds: a flag, no buffer.
 *
 * <p>Damage goes to the {@link RecordWarnings} the stream was opened with, one line each: the
 * stream stops at a record whose size is below 8 or that runs past the end of the data
 * (everything before it is returned); a record whose body contradicts its size is skipped.
 * Records of unknown types are returned as {@link UnknownRecord} and counted.
 */
public final class RecordStream implements Iterator<PerfRecord>, AutoCloseable {
    private static final int MAX_DETAILED_WARNINGS = 5;
    private static final int PERF_RECORD_HEADER_SIZE = 8;
    private static final int ARENA = 1 << 20;
    /** What top() and fromZstd() return for a sample decoded into {@link #view}. */
    private static final PerfRecord VIEWED = new UnknownRecord(-1, RecordType.PERF_RECORD_SAMPLE, 0, 0);

    private final String name;
    private final ByteOrder order;
    private final RecordDecoder decoder;
    private final EventRegistry events;
    private final RecordWarnings warnings;
    /** Whether the input is known to be truncated (its data section runs past its end). */
    private final boolean truncated;
    /** Pipe mode: where HEADER_ATTR / HEADER_FEATURE records after the leading ones go. */
    private final Consumer<PerfRecord> headers;
    private final ByteSource src;
    private final StreamInput stream;
    private final FileChunks chunks;
    private final long end;
    private final long prefixEnd;
    private long pos;
    private ZstdRecords zstd;
    private boolean zstdBroken;
    private boolean zstdFinished;
    private boolean topDone;
    private boolean done;
    /** {@link #hasNext()} read {@link #current} ahead of {@link #next()} / {@link #advance(SampleView)}. */
    private boolean peeked;
    private ByteSource lastSrc;
    private long lastPos;
    private int lastSize;
    private long skipped;
    private long unknown;
    /** Where the record being read puts a sample, or null to decode it in full. */
    private SampleView view;
    private PerfRecord current;
    private byte[] arena;
    private ByteSource arenaView;
    private int arenaUsed;

    RecordStream(String name, ByteOrder order, RecordDecoder decoder, EventRegistry events, ByteSource src,
            StreamInput stream, FileChunks chunks, long start, long end, long prefixEnd, boolean truncated,
            RecordWarnings warnings, Consumer<PerfRecord> headers) {
        this.name = name;
        this.order = order;
        this.decoder = decoder;
        this.events = events;
        this.truncated = truncated;
        this.warnings = warnings;
        this.headers = headers;
        this.src = src;
        this.stream = stream;
        this.chunks = chunks;
        this.pos = start;
        this.end = end;
        this.prefixEnd = prefixEnd;
    }

    /**
     * Advances to the next record and returns its type, or -1 at the end. With a view (the fast
     * path for readers of many samples), a PERF_RECORD_SAMPLE is decoded into {@code v} only
     * (nothing allocated; its bytes, {@link SampleView#source()}, are never overwritten and stay
     * valid while referred to) and {@link #current()} is null; any other record, and every record
     * without a view, is decoded in full and is then {@link #current()}. A record that
     * {@link #hasNext()} read ahead is that record, decoded in full.
     */
    public int advance(SampleView v) {
        if (peeked) {
            peeked = false;
        } else {
            view = v;
            current = done ? null : read();
        }
        if (current == null) {
            return -1;
        }
        return current == VIEWED ? RecordType.PERF_RECORD_SAMPLE : current.type();
    }

    /** The record the stream is at; null at the end and for a sample decoded into a view. */
    public PerfRecord current() {
        return current == VIEWED ? null : current;
    }

    @Override
    public boolean hasNext() {
        if (!peeked) {
            advance(null);
            peeked = true;
        }
        return current != null;
    }

    @Override
    public PerfRecord next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        peeked = false;
        return current;
    }

    /**
     * The bytes (header.size) of the record last returned by {@link #next()} (or that
     * {@link #advance(SampleView)} moved to), as stored; valid until the stream moves on, which
     * {@link #hasNext()} does (for hex dumps).
     */
    public ByteSource raw() {
        return lastSrc == null ? null : lastSrc.slice(lastPos, lastSize);
    }

    /**
     * The caller will {@link #recycle} the chunks it is done with: the file is read into reusable
     * off-heap chunks from the first record on. Call before reading.
     */
    public void recycleChunks() {
        if (chunks != null) {
            chunks.recycling();
        }
    }

    /**
     * Nothing refers to the bytes of {@code chunk}, the {@link SampleView#source()} of earlier
     * samples, any more: the reader may reuse its memory for records further on. Sources other
     * than the file's read chunks are left alone.
     */
    public void recycle(ByteSource chunk) {
        if (chunks != null) {
            chunks.recycle(chunk);
        }
    }

    /** Records skipped because their body did not fit their size. */
    public long skipped() {
        return skipped;
    }

    /** Records of types this reader does not know (returned as {@link UnknownRecord}). */
    public long unknown() {
        return unknown;
    }

    /** Reads the next record (into {@link #view} when it is a sample and there is a view); null at the end. */
    private PerfRecord read() {
        while (true) {
            if (zstd != null && !zstdBroken) {
                PerfRecord r = fromZstd();
                if (r != null) {
                    return r;
                }
            }
            if (topDone) {
                if (zstd != null && !zstdBroken && !zstdFinished) {
                    zstdFinished = true;
                    zstd.finish();
                    PerfRecord r = fromZstd();
                    if (r != null) {
                        return r;
                    }
                }
                if (zstd != null && !zstdBroken && (zstd.available() > 0 || zstd.pendingInput() > 0)) {
                    warnings.warn(name + ": compressed data ends in the middle of a record ("
                            + (zstd.available() + zstd.pendingInput()) + " bytes left over)");
                }
                if (skipped > MAX_DETAILED_WARNINGS) {
                    warnings.warn(name + ": " + (skipped - MAX_DETAILED_WARNINGS) + " more records could not be decoded");
                }
                done = true;
                return null;
            }
            PerfRecord r = top();
            if (r != null) {
                return r;
            }
        }
    }

    /** Reads one record of the data section; null when skipped or at the end. */
    private PerfRecord top() {
        long p = pos;
        ByteSource s;
        long at;
        if (stream != null) {
            stream.release(p);
            if (!stream.ensure(p, PERF_RECORD_HEADER_SIZE)) {
                if (stream.received() > p) {
                    warnings.warn(name + ": the stream ends inside a record header at offset 0x" + Long.toHexString(p));
                }
                topDone = true;
                return null;
            }
            s = stream.view().withOrder(order);
            at = p - stream.base();
        } else {
            s = src;
            at = p;
            if (end - p < PERF_RECORD_HEADER_SIZE) {
                if (p < end && truncated) {
                    warnings.truncatedAt(p);
                } else if (p < end) {
                    warnings.warn(name + ": " + (end - p) + " stray bytes at the end of the data (offset 0x"
                            + Long.toHexString(p) + ")");
                }
                topDone = true;
                return null;
            }
            if (chunks != null) {
                if (!chunks.holds(p, PERF_RECORD_HEADER_SIZE) && !chunks.ensure(p, PERF_RECORD_HEADER_SIZE)) {
                    warnings.warn(name + ": the file ends inside a record header at offset 0x" + Long.toHexString(p));
                    topDone = true;
                    return null;
                }
                s = chunks.view();
                at = p - chunks.base();
            }
        }
        int type = RecordDecoder.type(s, at);
        int size = RecordDecoder.size(s, at);
        if (size < PERF_RECORD_HEADER_SIZE) {
            warnings.warn(name + ": record at offset 0x" + Long.toHexString(p) + " (type " + Integer.toUnsignedString(type)
                    + ") has size " + size + ": stream is corrupt, stopping there");
            topDone = true;
            return null;
        }
        if (stream != null) {
            if (!stream.ensure(p, size)) {
                warnings.warn(name + ": the stream ends inside a record (offset 0x" + Long.toHexString(p) + ", "
                        + RecordType.name(type) + ", size " + size + "): the records from there on are missing"
                        + " (truncated stream?)");
                topDone = true;
                return null;
            }
            s = stream.view().withOrder(order);
            at = p - stream.base();
        } else if (size > end - p) {
            if (truncated) {
                warnings.truncatedAt(p); // one line for the whole damage
            } else {
                warnings.warn(name + ": record at offset 0x" + Long.toHexString(p) + " (" + RecordType.name(type)
                        + ", size " + size + ") runs past the end of the data (0x" + Long.toHexString(end)
                        + "): the records from there on are missing (truncated file?)");
            }
            topDone = true;
            return null;
        } else if (chunks != null) {
            if (!chunks.holds(p, size) && !chunks.ensure(p, size)) {
                warnings.warn(name + ": the file ends inside a record (offset 0x" + Long.toHexString(p) + ", "
                        + RecordType.name(type) + ", size " + size + "): stopping there");
                topDone = true;
                return null;
            }
            s = chunks.view();
            at = p - chunks.base();
        }
        PerfRecord r;
        lastSrc = s;
        lastPos = at;
        lastSize = size;
        try {
            if (view != null && type == RecordType.PERF_RECORD_SAMPLE) {
                pos = p + size;
                return viewed(s, at, p, size, stream != null);
            }
            r = decoder.decode(s, at, p);
        } catch (PerfDataException e) {
            skip(e);
            pos = p + size;
            return null;
        }
        pos = p + size;
        switch (type) {
            case RecordType.PERF_RECORD_HEADER_TRACING_DATA:
                return withPayload(r, ((TracingDataRecord) r).dataSize());
            case RecordType.PERF_RECORD_AUXTRACE:
                return withPayload(r, ((AuxtraceRecord) r).auxSize());
            case RecordType.PERF_RECORD_COMPRESSED:
            case RecordType.PERF_RECORD_COMPRESSED2:
                feed(s, at, (CompressedRecord) r);
                return r;
            case RecordType.PERF_RECORD_HEADER_ATTR:
            case RecordType.PERF_RECORD_HEADER_FEATURE:
                if (p >= prefixEnd) {
                    headers.accept(r);
                }
                // the body is a slice of a buffer that is reused: the record keeps a copy
                return r instanceof HeaderFeatureRecord hf && (stream != null || chunks != null) ? copyBody(hf) : r;
            default:
                return note(r);
        }
    }

    /** Attaches (or, on a stream, skips) the payload that follows TRACING_DATA / AUXTRACE records. */
    private PerfRecord withPayload(PerfRecord r, long n) {
        long p = pos;
        ByteSource data = null;
        if (stream != null) {
            if (r instanceof TracingDataRecord) {
                byte[] b = stream.copy(p, n);
                if (b != null) {
                    data = ByteSource.wrap(name, b).withOrder(order);
                }
            } else if (!stream.skip(p, n)) {
                data = null;
            }
            if (stream.received() < p + n) {
                warnings.warn(name + ": the stream ends inside the " + RecordType.name(r.type()) + " payload at offset 0x"
                        + Long.toHexString(p));
                topDone = true;
            }
        } else if (n < 0 || n > end - p) {
            warnings.warn(name + ": the " + RecordType.name(r.type()) + " payload at offset 0x" + Long.toHexString(p)
                    + " (" + Long.toUnsignedString(n) + " bytes) runs past the end of the data: stopping there");
            topDone = true;
            n = 0;
        } else {
            data = src.slice(p, n);
        }
        pos = p + n;
        if (r instanceof TracingDataRecord t) {
            return new TracingDataRecord(t.offset(), t.misc(), t.size(), t.dataSize(), data);
        }
        AuxtraceRecord a = (AuxtraceRecord) r;
        return new AuxtraceRecord(a.offset(), a.misc(), a.size(), a.auxSize(), a.auxOffset(), a.reference(), a.idx(),
                a.tid(), a.cpu(), data);
    }

    private HeaderFeatureRecord copyBody(HeaderFeatureRecord hf) {
        ByteSource b = hf.body();
        return new HeaderFeatureRecord(hf.offset(), hf.misc(), hf.size(), hf.featId(),
                ByteSource.wrap(name, b.bytes(0, (int) b.size())).withOrder(b.order()));
    }

    private void feed(ByteSource s, long at, CompressedRecord c) {
        if (zstdBroken) {
            return;
        }
        if (zstd == null) {
            zstd = new ZstdRecords(name);
        }
        long dataAt = at + c.dataOffset();
        zstd.feed(s, dataAt, (int) c.dataSize());
    }

    /** The next whole record of the decompressed stream, or null when more input is needed. */
    private PerfRecord fromZstd() {
        try {
            if (!zstd.fill(PERF_RECORD_HEADER_SIZE)) {
                return null;
            }
            ByteSource s = zstd.view().withOrder(order);
            int at = zstd.position();
            int size = RecordDecoder.size(s, at);
            if (size < PERF_RECORD_HEADER_SIZE) {
                warnings.warn(name + ": record of size " + size + " at offset 0x" + Long.toHexString(zstd.streamOffset())
                        + " of the decompressed data: compressed data is corrupt, ignoring the rest of it");
                zstdBroken = true;
                return null;
            }
            if (!zstd.fill(size)) {
                return null;
            }
            s = zstd.view().withOrder(order);
            at = zstd.position();
            long offset = zstd.streamOffset();
            zstd.advance(size);
            lastSrc = s;
            lastPos = at;
            lastSize = size;
            try {
                if (view != null && RecordDecoder.type(s, at) == RecordType.PERF_RECORD_SAMPLE) {
                    return viewed(s, at, offset, size, true);
                }
                return note(decoder.decode(s, at, offset));
            } catch (PerfDataException e) {
                skip(e);
                return null;
            }
        } catch (PerfDataException e) {
            warnings.warn(e.getMessage() + ": ignoring the rest of the compressed data");
            zstdBroken = true;
            return null;
        }
    }

    /**
     * Decodes a sample into {@link #view}; bytes that will be overwritten (a stream's or the
     * decompressor's buffer) are first copied to an arena of their own.
     */
    private PerfRecord viewed(ByteSource s, long at, long offset, int size, boolean reused) {
        if (reused) {
            if (arena == null || arena.length - arenaUsed < size) {
                arena = new byte[Math.max(ARENA, size)];
                arenaView = ByteSource.wrap(name, arena).withOrder(order);
                arenaUsed = 0;
            }
            s.get(at, arena, arenaUsed, size);
            s = arenaView;
            at = arenaUsed;
            arenaUsed += size;
        }
        decoder.decodeSample(s, at, offset, view);
        return VIEWED;
    }

    private PerfRecord note(PerfRecord r) {
        if (r instanceof UnknownRecord) {
            unknown++;
        } else if (r instanceof EventUpdateRecord u && u.updateType() == EventUpdateRecord.PERF_EVENT_UPDATE__NAME
                && u.text() != null) {
            EventDesc e = events.eventOf(u.id());
            if (e != null) {
                events.rename(e.index(), u.text());
            }
        }
        return r;
    }

    private void skip(PerfDataException e) {
        skipped++;
        if (skipped <= MAX_DETAILED_WARNINGS) {
            warnings.warn(e.getMessage() + ": record skipped");
        }
    }

    @Override
    public void close() {
        done = true;
        peeked = false;
        current = null;
    }
}
