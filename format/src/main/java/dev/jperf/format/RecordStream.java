package dev.jperf.format;

import dev.jperf.format.header.EventDesc;
import dev.jperf.format.io.ByteSource;
import dev.jperf.format.record.AuxtraceRecord;
import dev.jperf.format.record.CompressedRecord;
import dev.jperf.format.record.EventUpdateRecord;
import dev.jperf.format.record.HeaderFeatureRecord;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.RecordDecoder;
import dev.jperf.format.record.RecordType;
import dev.jperf.format.record.SampleView;
import dev.jperf.format.record.TracingDataRecord;
import dev.jperf.format.record.UnknownRecord;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The records of a {@link PerfDataFile}, decoded one at a time straight from the mapped file (or
 * the stream buffer): nothing but the current record is held.
 *
 * <p>The stream stops, with a warning on the file, at a record whose size is below 8 or that runs
 * past the end of the data; everything before it is returned. A record whose body contradicts
 * its size is skipped with a warning. Records of unknown types are returned as
 * {@link UnknownRecord} and counted.
 */
public final class RecordStream implements Iterator<PerfRecord>, AutoCloseable {
    private static final int MAX_DETAILED_WARNINGS = 5;
    private static final int PERF_RECORD_HEADER_SIZE = 8;
    private static final int ARENA = 1 << 20;
    /** What top() and fromZstd() return for a sample decoded into {@link #view}. */
    private static final PerfRecord VIEWED = new UnknownRecord(-1, RecordType.PERF_RECORD_SAMPLE, 0, 0);

    private final PerfDataFile file;
    private final RecordDecoder decoder;
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
    private PerfRecord next;
    private ByteSource lastSrc;
    private long lastPos;
    private int lastSize;
    private long skipped;
    private long unknown;
    private SampleView view;
    private PerfRecord current;
    private byte[] arena;
    private ByteSource arenaView;
    private int arenaUsed;

    RecordStream(PerfDataFile file, RecordDecoder decoder, ByteSource src, StreamInput stream, FileChunks chunks,
            long start, long end, long prefixEnd) {
        this.file = file;
        this.decoder = decoder;
        this.src = src;
        this.stream = stream;
        this.chunks = chunks;
        this.pos = start;
        this.end = end;
        this.prefixEnd = prefixEnd;
    }

    @Override
    public boolean hasNext() {
        if (next == null && !done) {
            next = advance();
        }
        return next != null;
    }

    @Override
    public PerfRecord next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        PerfRecord r = next;
        next = null;
        return r;
    }

    /**
     * The fast path for readers of many samples: advances to the next record and returns its type,
     * or -1 at the end. A PERF_RECORD_SAMPLE is decoded into {@code v} only (nothing allocated;
     * its bytes, {@link SampleView#source()}, are never overwritten and stay valid while referred
     * to); any other record is decoded as by {@link #next()} and is then {@link #current()}.
     * Do not mix with {@link #hasNext()} / {@link #next()}.
     */
    public int advance(SampleView v) {
        view = v;
        current = done ? null : advance();
        if (current == null) {
            return -1;
        }
        return current == VIEWED ? RecordType.PERF_RECORD_SAMPLE : current.type();
    }

    /** The record {@link #advance(SampleView)} stopped at when it is not a sample. */
    public PerfRecord current() {
        return current == VIEWED ? null : current;
    }

    /**
     * The bytes (header.size) of the record last returned by {@link #next()}, as stored; valid
     * until the next call to {@link #hasNext()} (for hex dumps).
     */
    public ByteSource raw() {
        return lastSrc == null ? null : lastSrc.slice(lastPos, lastSize);
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

    private PerfRecord advance() {
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
                    file.warn(file.name() + ": compressed data ends in the middle of a record ("
                            + (zstd.available() + zstd.pendingInput()) + " bytes left over)");
                }
                if (skipped > MAX_DETAILED_WARNINGS) {
                    file.warn(file.name() + ": " + (skipped - MAX_DETAILED_WARNINGS) + " more records could not be decoded");
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
                    file.warn(file.name() + ": the stream ends inside a record header at offset 0x" + Long.toHexString(p));
                }
                topDone = true;
                return null;
            }
            s = stream.view().withOrder(file.header().order());
            at = p - stream.base();
        } else {
            s = src;
            at = p;
            if (end - p < PERF_RECORD_HEADER_SIZE) {
                if (p < end && file.truncated()) {
                    file.truncatedAt(p);
                } else if (p < end) {
                    file.warn(file.name() + ": " + (end - p) + " stray bytes at the end of the data (offset 0x"
                            + Long.toHexString(p) + ")");
                }
                topDone = true;
                return null;
            }
            if (chunks != null) {
                if (!chunks.ensure(p, PERF_RECORD_HEADER_SIZE)) {
                    file.warn(file.name() + ": the file ends inside a record header at offset 0x" + Long.toHexString(p));
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
            file.warn(file.name() + ": record at offset 0x" + Long.toHexString(p) + " (type " + Integer.toUnsignedString(type)
                    + ") has size " + size + ": stream is corrupt, stopping there");
            topDone = true;
            return null;
        }
        if (stream != null) {
            if (!stream.ensure(p, size)) {
                file.warn(file.name() + ": the stream ends inside a record (offset 0x" + Long.toHexString(p) + ", "
                        + RecordType.name(type) + ", size " + size + "): the records from there on are missing"
                        + " (truncated stream?)");
                topDone = true;
                return null;
            }
            s = stream.view().withOrder(file.header().order());
            at = p - stream.base();
        } else if (size > end - p) {
            if (file.truncated()) {
                file.truncatedAt(p); // one line for the whole damage (PerfDataFile.warnings)
            } else {
                file.warn(file.name() + ": record at offset 0x" + Long.toHexString(p) + " (" + RecordType.name(type)
                        + ", size " + size + ") runs past the end of the data (0x" + Long.toHexString(end)
                        + "): the records from there on are missing (truncated file?)");
            }
            topDone = true;
            return null;
        } else if (chunks != null) {
            if (!chunks.ensure(p, size)) {
                file.warn(file.name() + ": the file ends inside a record (offset 0x" + Long.toHexString(p) + ", "
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
                    file.accept(r);
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
                    data = ByteSource.wrap(file.name(), b).withOrder(file.header().order());
                }
            } else if (!stream.skip(p, n)) {
                data = null;
            }
            if (stream.received() < p + n) {
                file.warn(file.name() + ": the stream ends inside the " + RecordType.name(r.type()) + " payload at offset 0x"
                        + Long.toHexString(p));
                topDone = true;
            }
        } else if (n < 0 || n > end - p) {
            file.warn(file.name() + ": the " + RecordType.name(r.type()) + " payload at offset 0x" + Long.toHexString(p)
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
                ByteSource.wrap(file.name(), b.bytes(0, (int) b.size())).withOrder(b.order()));
    }

    private void feed(ByteSource s, long at, CompressedRecord c) {
        if (zstdBroken) {
            return;
        }
        if (zstd == null) {
            zstd = new ZstdRecords(file.name());
        }
        long dataAt = at + (c.type() == RecordType.PERF_RECORD_COMPRESSED2 ? 16 : 8);
        zstd.feed(s, dataAt, (int) c.dataSize());
    }

    /** The next whole record of the decompressed stream, or null when more input is needed. */
    private PerfRecord fromZstd() {
        try {
            if (!zstd.fill(PERF_RECORD_HEADER_SIZE)) {
                return null;
            }
            ByteSource s = zstd.view().withOrder(file.header().order());
            int at = zstd.position();
            int size = RecordDecoder.size(s, at);
            if (size < PERF_RECORD_HEADER_SIZE) {
                file.warn(file.name() + ": record of size " + size + " at offset 0x" + Long.toHexString(zstd.streamOffset())
                        + " of the decompressed data: compressed data is corrupt, ignoring the rest of it");
                zstdBroken = true;
                return null;
            }
            if (!zstd.fill(size)) {
                return null;
            }
            s = zstd.view().withOrder(file.header().order());
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
            file.warn(e.getMessage() + ": ignoring the rest of the compressed data");
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
                arenaView = ByteSource.wrap(file.name(), arena).withOrder(file.header().order());
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
            EventDesc e = decoder.eventOf(u.id());
            if (e != null) {
                decoder.rename(e.index(), u.text());
            }
        }
        return r;
    }

    private void skip(PerfDataException e) {
        skipped++;
        if (skipped <= MAX_DETAILED_WARNINGS) {
            file.warn(e.getMessage() + ": record skipped");
        }
    }

    @Override
    public void close() {
        done = true;
        next = null;
    }
}
