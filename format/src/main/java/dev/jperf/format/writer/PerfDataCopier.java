package dev.jperf.format.writer;

import dev.jperf.format.PerfDataException;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.RecordStream;
import dev.jperf.format.feature.Feature;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.FileHeader;
import dev.jperf.format.io.ByteSource;
import dev.jperf.format.record.AuxtraceRecord;
import dev.jperf.format.record.CompressedRecord;
import dev.jperf.format.record.HeaderAttrRecord;
import dev.jperf.format.record.HeaderFeatureRecord;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.RecordType;
import dev.jperf.format.record.SampleRecord;
import dev.jperf.format.record.TracingDataRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Rewrites a perf.data (file or pipe mode, from a file or a stream) as a file-mode perf.data that
 * perf 6.1 reads, as {@code perf inject} without options does: the same events with their ids,
 * the records byte for byte, the same feature bodies. Pipe-mode HEADER_ATTR and HEADER_FEATURE
 * records become the attrs and feature sections. What perf 6.1 would refuse is made acceptable:
 * attrs are written with 128 bytes, BPF_PROG_INFO with 232-byte infos, compressed records
 * (COMPRESSED, and COMPRESSED2 which perf 6.1 does not know) are written decompressed, and record
 * types newer than perf 6.1 are left out (counted in a warning). What the reader recovers from a
 * damaged input (records up to a cut, a data.size of 0 left by a killed recorder, features with
 * bad offsets dropped) becomes a sound file, with the reader's warnings passed on.
 *
 * <p>The output is written through {@link PerfDataWriter}, checkpointed every second, so a
 * long-running copy from a pipe ({@code perf record -o - | jperf inject -o perf.data}) is a
 * readable file at every moment. Or it is a pipe-mode stream ({@link PerfPipeWriter}, {@code perf
 * inject} without {@code -o}): the same, with the feature sections as HEADER_FEATURE records, those
 * of a pipe-mode input passed on where they come in the stream.
 */
public final class PerfDataCopier {
    /** Records are handed to the writer in runs of about this many bytes. */
    private static final int CHUNK = 1 << 20;
    private static final long CHECKPOINT_NS = 1_000_000_000L;

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

    private final PerfDataFile in;
    private final PerfDataOutput out;
    /** The output when it is a stream: feature records of a stream input are passed on as they come. */
    private final PerfPipeWriter pipe;
    private final List<String> warnings = new ArrayList<>();
    /** Records left out because perf 6.1 does not know their type, by type. */
    private final Map<Integer, Long> newer = new TreeMap<>();
    /** Feature bits whose body could not be written. */
    private final Set<Integer> rejected = new HashSet<>();
    private byte[] chunk = new byte[CHUNK];
    private int used;
    private long records;
    private boolean decompressed;
    /** perf inject -b / --buildid-all, or null. */
    private BuildIdInjector buildIds;
    /** perf inject -b's ordered-events queue, or null. */
    private List<Queued> queued;
    /** The records to write ({@code RecordingFile.write}), or null for all. */
    private Predicate<PerfRecord> keep;

    private PerfDataCopier(PerfDataFile in, PerfDataOutput out) {
        this.in = in;
        this.out = out;
        this.pipe = out instanceof PerfPipeWriter p ? p : null;
    }

    /**
     * Copies the file {@code in} to {@code out}; an existing non-empty {@code out} is first renamed
     * {@code out.old}, as perf does (so {@code in} may be {@code out}: it is read from the backup).
     *
     * @throws PerfDataException when {@code in} cannot be read as perf.data
     * @throws IOException when {@code out} cannot be written (one line naming it)
     */
    public static Result copy(Path in, Path out) throws IOException {
        try (PerfDataFile f = PerfDataFile.open(in)) {
            return copy(f, out);
        }
    }

    /** Copies a pipe-mode stream (stdin) to {@code out}, as {@link #copy(Path, Path)}. */
    public static Result copy(String name, InputStream in, Path out) throws IOException {
        try (PerfDataFile f = PerfDataFile.open(name, in)) {
            return copy(f, out);
        }
    }

    /**
     * Copies the perf.data file {@code in}, or a pipe-mode stream when {@code in} is null (read from
     * {@code stdin}), to {@code out} as a pipe-mode stream named {@code name}, as perf inject writes
     * one to its stdout.
     */
    public static Result copyToStream(Path in, InputStream stdin, WritableByteChannel out, String name) throws IOException {
        try (PerfDataFile f = in != null ? PerfDataFile.open(in) : PerfDataFile.open("stdin", stdin)) {
            return copyToStream(f, out, name);
        }
    }

    /** Copies the opened {@code f} to {@code out} as a pipe-mode stream named {@code name}; {@code f} is left open. */
    public static Result copyToStream(PerfDataFile f, WritableByteChannel out, String name) throws IOException {
        return copyToStream(f, out, name, null);
    }

    /** {@link #copyToStream(PerfDataFile, WritableByteChannel, String)} with build-id records injected ({@code perf inject -b}), or not (null). */
    public static Result copyToStream(PerfDataFile f, WritableByteChannel out, String name, BuildIdInjector buildIds)
            throws IOException {
        List<PerfDataWriter.EventAttr> events = events(f);
        try (PerfPipeWriter w = PerfPipeWriter.create(out, name, events)) {
            PerfDataCopier c = new PerfDataCopier(f, w);
            c.buildIds = buildIds;
            // the records come decompressed: the stream does not say COMPRESSED
            c.rejected.add(Feature.COMPRESSED.bit());
            if (!f.isPipe()) {
                c.setFeatures();
            }
            c.copyRecords();
            w.close();
            return new Result(c.records, w.written(), c.warnings());
        }
    }

    /** The input's events as the writers take them. */
    private static List<PerfDataWriter.EventAttr> events(PerfDataFile f) {
        if (f.header().order() != ByteOrder.LITTLE_ENDIAN) {
            throw new PerfDataException(f.name() + ": a big-endian perf.data cannot be rewritten (only little-endian is written)");
        }
        List<PerfDataWriter.EventAttr> events = new ArrayList<>();
        for (EventDesc e : f.events()) {
            events.add(PerfDataWriter.EventAttr.of(e));
        }
        if (events.isEmpty()) {
            throw new PerfDataException(f.name() + ": defines no events: nothing a perf.data file could describe");
        }
        return events;
    }

    /** Copies the opened {@code f} to {@code out}, as {@link #copy(Path, Path)}; {@code f} is left open. */
    public static Result copy(PerfDataFile f, Path out) throws IOException {
        return copy(f, out, null);
    }

    /**
     * {@link #copy(PerfDataFile, Path)} with build-id records injected ({@code perf inject -b}) and
     * HEADER_BUILD_ID made of what they hit, or not (null).
     */
    public static Result copy(PerfDataFile f, Path out, BuildIdInjector buildIds) throws IOException {
        return copy(f, out, buildIds, null);
    }

    /**
     * {@link #copy(PerfDataFile, Path)} writing only the records {@code keep} accepts (all when
     * null); the attrs and feature sections are copied whole, as perf inject's are when its tool
     * drops records.
     */
    public static Result copyKept(PerfDataFile f, Path out, Predicate<PerfRecord> keep) throws IOException {
        return copy(f, out, null, keep);
    }

    private static Result copy(PerfDataFile f, Path out, BuildIdInjector buildIds, Predicate<PerfRecord> keep)
            throws IOException {
        List<PerfDataWriter.EventAttr> events = events(f);
        PerfDataWriter.backupExisting(out);
        try (PerfDataWriter w = PerfDataWriter.create(out, events)) {
            PerfDataCopier c = new PerfDataCopier(f, w);
            c.buildIds = buildIds;
            c.keep = keep;
            c.setFeatures();
            c.copyRecords();
            // Pipe-mode features may also come later in the stream.
            c.setFeatures();
            if (buildIds != null) {
                w.setFeature(buildIds.table());
            }
            w.close();
            return new Result(c.records, w.dataSize(), c.warnings());
        }
    }

    private void setFeatures() {
        for (int bit : in.featureBits()) {
            if (bit == Feature.COMPRESSED.bit() && (decompressed || pipe != null)) {
                out.setFeature(bit, null);
                continue;
            }
            in.featureBody(bit).ifPresent(b -> {
                try {
                    out.setFeature(bit, b.bytes(0, (int) b.size()));
                } catch (IllegalArgumentException e) {
                    // a body the writer must rewrite (BPF_PROG_INFO) and cannot parse; perf would drop it too
                    if (rejected.add(bit)) {
                        warnings.add(in.name() + ": " + e.getMessage() + ": feature left out");
                    }
                }
            });
        }
    }

    private void copyRecords() throws IOException {
        int nEvents = in.events().size();
        long lastCheckpoint = System.nanoTime();
        try (RecordStream rs = in.records()) {
            while (rs.hasNext()) {
                PerfRecord r = rs.next();
                if (r instanceof HeaderAttrRecord || r instanceof HeaderFeatureRecord) {
                    if (in.events().size() > nEvents) {
                        throw new PerfDataException(in.name() + ": HEADER_ATTR record at offset 0x" + Long.toHexString(r.offset())
                                + " defines an event after the start of the stream; rewriting such a stream is not supported");
                    }
                    if (pipe != null && r instanceof HeaderFeatureRecord f) {
                        passFeature(f);
                    }
                    continue; // they are the attrs and feature sections now
                }
                if (r instanceof CompressedRecord) {
                    decompressed = true; // its records follow, decompressed
                    continue;
                }
                if (!knownToPerf61(r.type())) {
                    newer.merge(r.type(), 1L, Long::sum);
                    continue;
                }
                if (keep != null && !keep.test(r)) {
                    continue;
                }
                ByteSource raw = rs.raw();
                if (buildIds != null && buildIds.ordered() && queue(r, raw)) {
                    continue;
                }
                byte[] injected = buildIds == null ? null : buildIds.before(r);
                if (injected != null) {
                    addBytes(injected);
                }
                if (r instanceof TracingDataRecord t) {
                    add(r, raw, t.data(), t.dataSize());
                } else if (r instanceof AuxtraceRecord a) {
                    add(r, raw, a.data(), a.auxSize());
                } else {
                    add(r, raw, null, 0);
                }
                long now = System.nanoTime();
                if (now - lastCheckpoint >= CHECKPOINT_NS) {
                    // A live pipe may trickle: what arrived is in the file within a second.
                    flushChunk();
                    out.checkpoint();
                    lastCheckpoint = now;
                } else if (used >= CHUNK) {
                    flushChunk();
                }
            }
        }
        if (queued != null) {
            // perf inject -b's ordered events, never flushed at a round: all of them at the end, in time order
            queued.sort(Comparator.comparingLong(Queued::time));
            for (Queued q : queued) {
                byte[] injected = buildIds.before(q.record);
                if (injected != null) {
                    addBytes(injected);
                }
                addBytes(q.bytes);
                if (used >= CHUNK) {
                    flushChunk();
                }
            }
            queued = null;
        }
        flushChunk();
    }

    /** A kernel record perf inject -b holds in its ordered-events queue; time sorts unsigned. */
    private record Queued(long time, PerfRecord record, byte[] bytes) {
    }

    /**
     * perf_session__queue_event as perf inject -b has it (tool.ordered_events, FINISHED_ROUND
     * passed on at once without a flush): a kernel record with a time is held for the end, in
     * time order (equal times in file order); true when {@code r} was held.
     */
    private boolean queue(PerfRecord r, ByteSource raw) {
        if (r.type() >= RecordType.PERF_RECORD_USER_TYPE_START) {
            return false;
        }
        long time = r instanceof SampleRecord s ? s.time() : r.sampleId().time();
        if (time == 0 || time == -1) {
            return false;
        }
        if (queued == null) {
            queued = new ArrayList<>();
        }
        byte[] bytes = new byte[(int) raw.size()];
        raw.get(0, bytes, 0, bytes.length);
        // unsigned order as a signed key: flip the sign bit
        queued.add(new Queued(time ^ Long.MIN_VALUE, r, bytes));
        records++;
        return true;
    }

    /**
     * A stream input's HEADER_FEATURE record, to a stream output where it came: its end mark and
     * COMPRESSED left out (the output makes its own mark; its records are decompressed).
     */
    private void passFeature(HeaderFeatureRecord f) throws IOException {
        if (f.featId() < 0 || f.featId() >= FileHeader.HEADER_FEAT_BITS || f.body().size() == 0 || rejected.contains(f.featId())) {
            return;
        }
        flushChunk();
        try {
            byte[] body = PerfDataWriter.featureBody(f.featId(), f.body().bytes(0, (int) f.body().size()));
            if (!pipe.appendFeature(f.featId(), body)) {
                warnings.add(in.name() + ": feature " + Feature.name(f.featId()) + " does not fit one HEADER_FEATURE record: left out");
            }
        } catch (IllegalArgumentException e) {
            if (rejected.add(f.featId())) {
                warnings.add(in.name() + ": " + e.getMessage() + ": feature left out");
            }
        }
    }

    /** Kernel types 1..21 and user types 64..82: what perf 6.1 processes (it fails on the others). */
    private static boolean knownToPerf61(int type) {
        return type < RecordType.PERF_RECORD_MAX
                || (type >= RecordType.PERF_RECORD_USER_TYPE_START && type < RecordType.PERF_RECORD_HEADER_MAX_6_1);
    }

    /** Adds one record (and the payload that follows a TRACING_DATA / AUXTRACE record) to the chunk. */
    private void add(PerfRecord r, ByteSource raw, ByteSource payload, long payloadSize) {
        String what = RecordType.name(r.type()) + " record at offset 0x" + Long.toHexString(r.offset());
        if (payloadSize > 0 && (payload == null || payload.size() != payloadSize)) {
            warnings.add(in.name() + ": the " + what + " has no payload to copy: left out");
            return;
        }
        long n = raw.size() + payloadSize;
        if (used + n > chunk.length) {
            if (n > Integer.MAX_VALUE - 8 - used) {
                warnings.add(in.name() + ": the " + what + " (" + n + " bytes) is too large to copy: left out");
                return;
            }
            chunk = Arrays.copyOf(chunk, (int) Math.max(used + n, chunk.length));
        }
        raw.get(0, chunk, used, (int) raw.size());
        used += (int) raw.size();
        if (payloadSize > 0) {
            payload.get(0, chunk, used, (int) payloadSize);
            used += (int) payloadSize;
        }
        records++;
    }

    /** Adds a record made here (an injected build-id) to the chunk. */
    private void addBytes(byte[] record) {
        if (used + record.length > chunk.length) {
            chunk = Arrays.copyOf(chunk, Math.max(used + record.length, chunk.length));
        }
        System.arraycopy(record, 0, chunk, used, record.length);
        used += record.length;
        records++;
    }

    private void flushChunk() throws IOException {
        if (used > 0) {
            out.append(ByteBuffer.wrap(chunk), 0, used);
            used = 0;
            if (chunk.length > CHUNK) {
                chunk = new byte[CHUNK];
            }
        }
    }

    private List<String> warnings() {
        List<String> all = new ArrayList<>(in.warnings());
        all.addAll(warnings);
        newer.forEach((type, n) -> all.add(in.name() + ": " + n + " " + RecordType.name(type)
                + " record(s) left out: perf 6.1 does not know type " + type));
        return all;
    }
}
