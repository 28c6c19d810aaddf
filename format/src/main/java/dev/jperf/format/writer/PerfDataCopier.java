package dev.jperf.format.writer;

import dev.jperf.format.PerfDataException;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.PerfFileSection;
import dev.jperf.format.io.ByteSource;
import dev.jperf.format.record.RecordType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites a perf.data (file or pipe mode) as a file-mode perf.data, as {@code perf inject} without
 * options does: the same events with their ids, the same records byte for byte, the same feature
 * bodies (BPF_PROG_INFO normalised to what perf 6.1 reads). Pipe-mode HEADER_ATTR and
 * HEADER_FEATURE records become the attrs and feature sections. What the reader recovers from a
 * damaged file (records up to a cut, a data.size of 0 left by a killed recorder, features with
 * bad offsets dropped) is written as a sound file, with the reader's warnings passed on.
 */
public final class PerfDataCopier {
    /** Records are handed to the writer in runs of about this many bytes. */
    private static final int CHUNK = 1 << 20;

    /**
     * @param records records written (HEADER_TRACING_DATA and AUXTRACE with their payloads)
     * @param dataSize bytes of records in the output
     * @param warnings one line per problem of the input that the copy leaves behind
     */
    public record Result(long records, long dataSize, List<String> warnings) {
        public Result {
            warnings = List.copyOf(warnings);
        }
    }

    private PerfDataCopier() {
    }

    /**
     * Copies {@code in} to {@code out}; an existing non-empty {@code out} is first renamed
     * {@code out.old}, as perf does (so {@code in} may be {@code out}: it is read from the backup).
     *
     * @throws PerfDataException when {@code in} cannot be read as perf.data
     * @throws IOException when {@code out} cannot be written (one line naming it)
     */
    public static Result copy(Path in, Path out) throws IOException {
        PerfDataFile file = PerfDataFile.open(in);
        if (file.header().order() != ByteOrder.LITTLE_ENDIAN) {
            throw new PerfDataException(in + ": a big-endian perf.data cannot be rewritten (only little-endian is written)");
        }
        ByteSource src = ByteSource.map(in);
        PerfFileSection data = file.dataSection();
        long start = data.offset();
        List<String> warnings = new ArrayList<>();
        long end = checkedEnd(in, src, start, start + data.size(), file.events().size(), warnings);

        List<PerfDataWriter.EventAttr> events = new ArrayList<>();
        for (EventDesc e : file.events()) {
            events.add(PerfDataWriter.EventAttr.of(e));
        }
        PerfDataWriter.backupExisting(out);
        long records = 0;
        try (PerfDataWriter w = PerfDataWriter.create(out, events)) {
            for (int bit : file.featureBits()) {
                file.featureBody(bit).ifPresent(b -> w.setFeature(bit, b.bytes(0, (int) b.size())));
            }
            byte[] chunk = new byte[CHUNK];
            long run = start;
            long p = start;
            while (p < end) {
                long unit = unit(src, p);
                int type = (int) src.u32(p);
                boolean header = type == RecordType.PERF_RECORD_HEADER_ATTR || type == RecordType.PERF_RECORD_HEADER_FEATURE;
                if (header || p + unit - run > chunk.length) {
                    chunk = append(w, src, run, p, chunk);
                    run = p;
                }
                if (unit > chunk.length) {
                    chunk = new byte[(int) unit];
                }
                p += unit;
                if (header) {
                    run = p;
                } else {
                    records++;
                }
            }
            append(w, src, run, end, chunk);
            w.close();
            warnings.addAll(0, file.warnings());
            return new Result(records, w.dataSize(), warnings);
        }
    }

    /** Appends the records in [from, to) of {@code src}; returns the (possibly grown) chunk buffer. */
    private static byte[] append(PerfDataWriter w, ByteSource src, long from, long to, byte[] chunk) throws IOException {
        int n = (int) (to - from);
        if (n > chunk.length) {
            chunk = new byte[n];
        }
        if (n > 0) {
            src.get(from, chunk, 0, n);
            w.append(chunk, 0, n);
        }
        return chunk;
    }

    /** Bytes of the record at {@code p} with any payload that follows it (checked by {@link #checkedEnd}). */
    private static long unit(ByteSource src, long p) {
        byte[] head = src.bytes(p, (int) Math.min(16, src.size() - p));
        return PerfDataWriter.unitSize(ByteBuffer.wrap(head), 0, head.length);
    }

    /**
     * Walks the record framing of [start, end): returns where the last whole record ends (as the
     * reader, the copy stops at a record that is cut or corrupt) and checks that every pipe-mode
     * HEADER_ATTR is among the events the reader took from the start of the stream.
     */
    private static long checkedEnd(Path in, ByteSource src, long start, long end, int events, List<String> warnings) {
        long p = start;
        int attrs = 0;
        while (p < end) {
            long unit = end - p >= 8 ? unit(src, p) : -1;
            if (unit < 0 || unit > end - p) {
                warnings.add(in + ": records end at offset 0x" + Long.toHexString(p) + " (a cut or corrupt record follows): "
                        + (end - p) + " bytes not copied");
                return p;
            }
            if (src.u32(p) == RecordType.PERF_RECORD_HEADER_ATTR && ++attrs > events) {
                throw new PerfDataException(in + ": HEADER_ATTR record at offset 0x" + Long.toHexString(p)
                        + " defines an event after the start of the stream; rewriting such a stream is not supported");
            }
            p += unit;
        }
        return p;
    }
}
