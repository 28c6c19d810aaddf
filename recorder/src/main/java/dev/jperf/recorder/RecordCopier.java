package dev.jperf.recorder;

import dev.jperf.nativeshim.RawMemory;
import dev.jperf.nativeshim.RingBuffer;
import static dev.jperf.format.record.BpfEventRecord.PERF_BPF_EVENT_PROG_LOAD;
import static dev.jperf.format.record.RecordType.*;

import dev.jperf.format.writer.PerfDataOutput;
import dev.jperf.format.writer.PerfDataWriter;
import dev.jperf.format.writer.RecordCompressor;
import dev.jperf.nativeshim.Bpf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.ByteOrder;

/**
 * Copies ring-buffer records into the file. Into a file without compression, what a drain walks is
 * written straight from the ring first, as perf writes it, and walked after (the kernel's copy has
 * brought it into the cache); otherwise contiguous records go out as one run through the output's
 * buffer. On the way it counts samples and LOST records, tracks the first and last sample time,
 * pins every BPF program whose PROG_LOAD it sees, and rewrites KSYMBOL/BPF_EVENT records the
 * kernel inflated to their canonical size (perf-data-format.md §6): written already, the records
 * from there on are written again.
 *
 * <p>Used under the recorder's file lock only.
 */
final class RecordCopier implements RingBuffer.Visitor {

    private final PerfDataOutput writer;
    /** {@code -z}: ring records go out packed in COMPRESSED records; null writes them as they are. */
    private final RecordCompressor compressor;
    private final BpfCapture capture;
    private final Bpf bpf = new Bpf();
    private final PinQueue queue;
    private final int trailerSize;
    private final int sampleTimeOffset;
    private final DsoHits hits;
    private final ByteBuffer fixed = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
    /** The file, when ring records are written straight from the ring (no -z, not a pipe); else null. */
    private final PerfDataWriter direct;

    /** The drain being walked, when {@link #direct}: its ring, where its bytes start and how many. */
    private RingBuffer batchRing;
    private int batchOffset;
    private int batchLength;
    /** Bytes of the batch walked so far, and where the next record sits in the file's data. */
    private int walked;
    private long fileAt;

    private ByteBuffer runBuf;
    private int runStart;
    private int runEnd;

    /** The sample_id trailer of the first PROG_LOAD copied (null: none yet). */
    private byte[] firstProgLoadTrailer;
    private long samples;
    private long lost;
    private long firstSampleTime = Long.MAX_VALUE;
    private long lastSampleTime;
    private long records;
    private long ownBytes;
    private IOException failure;

    /**
     * @param trailerSize      sample_id trailer bytes of the records' event
     * @param sampleTimeOffset where a SAMPLE's time sits (from the record start), -1 if not sampled
     */
    RecordCopier(PerfDataOutput writer, RecordCompressor compressor, BpfCapture capture, int trailerSize,
            int sampleTimeOffset, DsoHits hits) {
        this.hits = hits;
        this.writer = writer;
        this.compressor = compressor;
        this.capture = capture;
        this.queue = capture.newQueue();
        this.trailerSize = trailerSize;
        this.sampleTimeOffset = sampleTimeOffset;
        this.direct = compressor == null && writer instanceof PerfDataWriter w ? w : null;
    }

    /** Without compression into a file: the bytes the walk will visit go to the file first, from the ring. */
    @Override
    public void beforeWalk(RingBuffer ring, int offset, int length) {
        if (direct == null || failure != null) {
            return;
        }
        batchRing = ring;
        batchOffset = offset;
        batchLength = length;
        walked = 0;
        try {
            ring.span(offset, length);
            fileAt = direct.appendUnbuffered(ring.spanToEnd(), ring.spanFromStart());
        } catch (IOException e) {
            failure = e;
            batchRing = null;
        }
    }

    @Override
    public void record(MappedByteBuffer buf, int offset, long address, int size, int type, int misc) {
        records++;
        switch (type) {
            case PERF_RECORD_SAMPLE -> {
                samples++;
                hits.sample(address, size, misc);
                if (sampleTimeOffset > 0 && sampleTimeOffset + 8 <= size) {
                    long t = RawMemory.getLong(address + sampleTimeOffset);
                    if (t < firstSampleTime) {
                        firstSampleTime = t;
                    }
                    if (t > lastSampleTime) {
                        lastSampleTime = t;
                    }
                }
            }
            case PERF_RECORD_LOST -> {
                if (size >= 24) {
                    lost += buf.getLong(offset + 16);
                }
            }
            case PERF_RECORD_KSYMBOL, PERF_RECORD_BPF_EVENT -> {
                int canonical = canonicalSize(buf, offset, size, type, trailerSize);
                if (type == PERF_RECORD_BPF_EVENT && size >= 16 && buf.getShort(offset + 8) == PERF_BPF_EVENT_PROG_LOAD) {
                    capture.pin(buf.getInt(offset + 12), bpf, queue);
                    if (firstProgLoadTrailer == null && canonical >= 8 + trailerSize) {
                        firstProgLoadTrailer = new byte[trailerSize];
                        buf.get(offset + canonical - trailerSize, firstProgLoadTrailer);
                    }
                }
                if (canonical < size && batchRing != null) {
                    rewriteFrom(buf, offset, size, canonical);
                    return;
                }
                if (canonical < size) {
                    endOfBatch();
                    fixed.clear();
                    fixed.put(0, buf, offset, canonical);
                    fixed.putShort(6, (short) canonical);
                    append(fixed, 0, canonical);
                    return;
                }
            }
            case PERF_RECORD_MMAP2 -> hits.mmap2(buf, offset, size);
            case PERF_RECORD_FORK -> hits.fork(buf, offset);
            case PERF_RECORD_COMM -> hits.comm(buf, offset, misc);
            default -> { }
        }
        if (batchRing != null) {
            walked += size;
            fileAt += size;
            return;
        }
        if (buf != runBuf || offset != runEnd) {
            endOfBatch();
            runBuf = buf;
            runStart = offset;
            runEnd = offset;
        }
        runEnd += size;
    }

    /**
     * An inflated record of the batch written from the ring: the file's records are cut before it,
     * its canonical form follows, then the rest of the batch again from the ring.
     */
    private void rewriteFrom(MappedByteBuffer buf, int offset, int size, int canonical) {
        walked += size;
        try {
            direct.truncateUnpublished(fileAt);
            fixed.clear();
            fixed.put(0, buf, offset, canonical);
            fixed.putShort(6, (short) canonical);
            direct.append(fixed, 0, canonical);
            fileAt += canonical;
            int rest = batchLength - walked;
            if (rest > 0) {
                batchRing.span((int) ((batchOffset + walked) & (batchRing.dataSize() - 1)), rest);
                fileAt = direct.appendUnbuffered(batchRing.spanToEnd(), batchRing.spanFromStart());
            }
        } catch (IOException e) {
            failure = e;
            batchRing = null;
        }
    }

    /**
     * Body + trailer of a KSYMBOL (name padded to 8) or BPF_EVENT (24-byte body): what the record
     * is when no other event on its CPU inflated it.
     */
    static int canonicalSize(ByteBuffer buf, int offset, int size, int type, int trailerSize) {
        int body;
        if (type == PERF_RECORD_BPF_EVENT) {
            body = 24;
        } else {
            int n = 0;
            while (24 + n < size && buf.get(offset + 24 + n) != 0) {
                n++;
            }
            body = 24 + SyntheticRecords.pad8(n + 1);
        }
        return Math.min(size, body + trailerSize);
    }

    @Override
    public void endOfBatch() {
        if (batchRing != null) {
            endOfDirectBatch();
        }
        if (runBuf != null && runEnd > runStart) {
            append(runBuf, runStart, runEnd - runStart);
        }
        runBuf = null;
        runStart = runEnd = 0;
    }

    /** The batch written from the ring is walked: records the walk did not reach are cut, the header refreshed when due. */
    private void endOfDirectBatch() {
        try {
            if (walked < batchLength) {
                // a header the ring walk refused (the kernel broke the ABI): what follows is not records
                direct.truncateUnpublished(fileAt);
            }
            direct.publish();
        } catch (IOException e) {
            failure = e;
        }
        batchRing = null;
    }

    /**
     * Appends records the recorder built itself (their maps and forks are followed too); as perf
     * does, they are never compressed: ring records before them are packed and written first.
     */
    void appendOwn(ByteBuffer records) {
        for (int p = records.position(); p + 8 <= records.limit(); ) {
            int size = records.getShort(p + 6) & 0xffff;
            int type = records.getInt(p);
            if (size < 8) {
                break;
            }
            if (type == PERF_RECORD_MMAP2) {
                hits.mmap2(records, p, size);
            } else if (type == PERF_RECORD_FORK) {
                hits.fork(records, p);
            }
            p += size;
        }
        appendOwnPlain(records);
    }

    /**
     * Appends records the recorder built that change no map (FINISHED_ROUND after each pass):
     * {@link #appendOwn} without the walk.
     */
    void appendOwnPlain(ByteBuffer records) {
        endOfBatch();
        flushCompressor();
        ownBytes += records.remaining();
        if (failure != null) {
            return;
        }
        try {
            writer.append(records, records.position(), records.remaining());
        } catch (IOException e) {
            failure = e;
        }
    }

    /** Ring records: to the compressor with -z, else straight to the output. */
    private void append(ByteBuffer buf, int offset, int length) {
        if (failure != null) {
            return; // the writer stopped; keep draining so the kernel is not blocked
        }
        try {
            if (compressor != null) {
                compressor.add(buf, offset, length, writer);
            } else {
                writer.appendFramed(buf, offset, length); // the ring walk has checked every header
            }
        } catch (IOException e) {
            failure = e;
        }
    }

    /** Writes the ring records the compressor still holds (before an own record, and at the end). */
    void flushCompressor() {
        if (compressor == null || failure != null) {
            return;
        }
        try {
            compressor.flush(writer);
        } catch (IOException e) {
            failure = e;
        }
    }

    /** The sample_id trailer (pid, time, id, cpu) of the first PROG_LOAD copied, or null. */
    byte[] firstProgLoadTrailer() {
        return firstProgLoadTrailer;
    }

    long samples() {
        return samples;
    }

    long lost() {
        return lost;
    }

    long records() {
        return records;
    }

    /** Bytes appended through {@link #appendOwn}. */
    long ownBytes() {
        return ownBytes;
    }

    /** Time of the first SAMPLE, or 0 if none. */
    long firstSampleTime() {
        return samples == 0 ? 0 : firstSampleTime;
    }

    long lastSampleTime() {
        return lastSampleTime;
    }

    /** The writer's failure (full disk...), or null. */
    IOException failure() {
        return failure;
    }
}
