package dev.jperf.format;

import dev.jperf.format.feature.EventDescs;
import dev.jperf.format.feature.Feature;
import dev.jperf.format.feature.FeatureException;
import dev.jperf.format.feature.Features;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.EventNames;
import dev.jperf.format.header.FileHeader;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.header.PerfFileSection;
import dev.jperf.format.io.ByteSource;
import dev.jperf.format.record.EventRegistry;
import dev.jperf.format.record.HeaderAttrRecord;
import dev.jperf.format.record.HeaderFeatureRecord;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.RecordDecoder;
import dev.jperf.format.record.RecordType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A perf.data file or stream, opened: header, events (attrs with ids and names), feature
 * sections as raw bodies, and the record stream. File mode and pipe mode look the same: in pipe
 * mode the HEADER_ATTR and HEADER_FEATURE records at the start provide the events and features.
 *
 * <pre>{@code
 * try (PerfDataFile f = PerfDataFile.open(Path.of("perf.data"));
 *      RecordStream records = f.records()) {
 *     while (records.hasNext()) {
 *         if (records.next() instanceof SampleRecord s) { ... }
 *     }
 * }
 * }</pre>
 *
 * <p>Damage is tolerated where what remains is sound: such problems are collected as one-line
 * {@link #warnings()}; a file that cannot be read at all raises {@link PerfDataException}.
 */
public final class PerfDataFile implements AutoCloseable {
    private final String name;
    private final FileHeader header;
    private final ByteSource src;
    private final StreamInput stream;
    private final EventRegistry events = new EventRegistry();
    private final RecordDecoder decoder;
    private final TreeMap<Integer, ByteSource> features = new TreeMap<>();
    private final List<Integer> featureBits = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private Features decodedFeatures;
    private final long dataStart;
    private final long dataEnd;
    /** A data section past the end of the file: {claimed size, file size}; null when whole. */
    private long[] truncation;
    /** Where the records of a truncated file stopped (-1: not read yet). */
    private long truncatedAt = -1;
    /** Pipe mode: where the records after the leading HEADER_ATTR / HEADER_FEATURE ones start. */
    private long prefixEnd;
    private boolean streamTaken;
    private volatile ReadProgress progress = ReadProgress.NONE;
    /**
     * The file when opened by path, open from then on (it may be renamed or replaced meanwhile):
     * records are read from it with positional reads ({@link FileChunks}).
     */
    private FileChannel channel;

    private PerfDataFile(String name, FileHeader header, ByteSource src, StreamInput stream, long dataStart, long dataEnd) {
        this.name = name;
        this.header = header;
        this.src = src;
        this.stream = stream;
        this.dataStart = dataStart;
        this.dataEnd = dataEnd;
        this.decoder = new RecordDecoder(name, events);
    }

    /** Opens a file (file or pipe mode, detected from the header), memory-mapping it. */
    public static PerfDataFile open(Path file) {
        String name = file.toString();
        if (Files.isDirectory(file)) {
            throw new PerfDataException(name + ": is a directory (perf record --threads output is not supported)");
        }
        if (!Files.exists(file)) {
            throw new PerfDataException(name + ": No such file or directory");
        }
        if (!Files.isReadable(file)) {
            throw new PerfDataException(name + ": Permission denied");
        }
        if (!Files.isRegularFile(file)) {
            // a FIFO or device (-i /dev/stdin): cannot be mapped, read it as a stream
            try {
                return open(name, Files.newInputStream(file));
            } catch (java.io.IOException e) {
                throw new PerfDataException(name + ": cannot open: " + e.getMessage(), e);
            }
        }
        ByteSource s;
        try {
            s = ByteSource.map(file);
        } catch (PerfDataException e) {
            if (e.getCause() instanceof NoSuchFileException) {
                throw new PerfDataException(name + ": No such file or directory", e);
            }
            if (e.getCause() instanceof AccessDeniedException) {
                throw new PerfDataException(name + ": Permission denied", e);
            }
            throw e;
        }
        PerfDataFile f = open(name, s);
        try {
            f.channel = FileChannel.open(file, StandardOpenOption.READ);
        } catch (IOException e) {
            // mapped but not readable as a channel: the records are read through the mapping
        }
        return f;
    }

    /** Opens bytes already in memory (tests, embedded data). */
    public static PerfDataFile open(String name, ByteSource bytes) {
        if (bytes.size() < 16) {
            throw new PerfDataException(name + ": not a perf.data file: only " + bytes.size() + " bytes");
        }
        ByteSource s = byteOrder(name, bytes);
        long hsize = s.u64(FileHeader.SIZE);
        if (hsize == FileHeader.PERF_PIPE_HEADER_SIZE) {
            FileHeader h = new FileHeader(s.order(), true, hsize, 0, PerfFileSection.EMPTY, PerfFileSection.EMPTY,
                    PerfFileSection.EMPTY, new long[4]);
            PerfDataFile f = new PerfDataFile(name, h, s, null, 16, s.size());
            f.readPipePrefix();
            return f;
        }
        return openFileMode(name, s, hsize);
    }

    /** Opens a pipe-mode stream (e.g. stdin); it is read once, forward, without holding it all. */
    public static PerfDataFile open(String name, InputStream in) {
        StreamInput si = new StreamInput(name, in);
        if (!si.ensure(0, 16)) {
            throw new PerfDataException(name + ": not a perf.data stream: only " + si.received() + " bytes");
        }
        ByteSource s = byteOrder(name, si.view());
        long hsize = s.u64(FileHeader.SIZE);
        if (hsize != FileHeader.PERF_PIPE_HEADER_SIZE) {
            throw new PerfDataException(name + ": a stream must be in pipe mode (perf record -o -), header size is " + hsize);
        }
        FileHeader h = new FileHeader(s.order(), true, hsize, 0, PerfFileSection.EMPTY, PerfFileSection.EMPTY,
                PerfFileSection.EMPTY, new long[4]);
        PerfDataFile f = new PerfDataFile(name, h, null, si, 16, Long.MAX_VALUE);
        f.readPipePrefix();
        return f;
    }

    private static ByteSource byteOrder(String name, ByteSource s) {
        long magic = s.withOrder(ByteOrder.LITTLE_ENDIAN).u64(0);
        if (magic == FileHeader.PERF_MAGIC2) {
            return s.withOrder(ByteOrder.LITTLE_ENDIAN);
        }
        if (magic == Long.reverseBytes(FileHeader.PERF_MAGIC2)) {
            return s.withOrder(ByteOrder.BIG_ENDIAN);
        }
        byte[] m = s.bytes(0, 8);
        if ("PERFFILE".equals(new String(m, StandardCharsets.ISO_8859_1))) {
            throw new PerfDataException(name + ": perf.data version 1 (PERFFILE) is not supported");
        }
        throw new PerfDataException(name + ": not a perf.data file (bad magic)");
    }

    private static PerfDataFile openFileMode(String name, ByteSource s, long hsize) {
        if (hsize != FileHeader.PERF_FILE_HEADER_SIZE && hsize != FileHeader.PERF_FILE_HEADER_SIZE_NO_FEATURES) {
            throw new PerfDataException(name + ": not a perf.data file (header size " + hsize + ")");
        }
        if (s.size() < hsize) {
            throw new PerfDataException(name + ": file too short for its header (" + s.size() + " of " + hsize + " bytes)");
        }
        long attrSize = s.u64(FileHeader.ATTR_SIZE);
        PerfFileSection attrs = new PerfFileSection(s.u64(FileHeader.ATTRS), s.u64(FileHeader.ATTRS + 8));
        PerfFileSection data = new PerfFileSection(s.u64(FileHeader.DATA), s.u64(FileHeader.DATA + 8));
        PerfFileSection types = new PerfFileSection(s.u64(FileHeader.EVENT_TYPES), s.u64(FileHeader.EVENT_TYPES + 8));
        long[] bits = new long[4];
        if (hsize == FileHeader.PERF_FILE_HEADER_SIZE) {
            for (int i = 0; i < 4; i++) {
                bits[i] = s.u64(FileHeader.ADDS_FEATURES + 8L * i);
            }
        }
        FileHeader h = new FileHeader(s.order(), false, hsize, attrSize, attrs, data, types, bits);
        if (attrSize == 0 || attrSize > (1 << 16)) {
            throw new PerfDataException(name + ": corrupt header: attr_size " + attrSize);
        }
        if (!attrs.within(s.size())) {
            throw new PerfDataException(name + ": corrupt header: attrs section (offset 0x" + Long.toHexString(attrs.offset())
                    + ", size " + attrs.size() + ") lies outside the file (" + s.size() + " bytes)");
        }
        if (data.offset() < hsize || data.offset() > s.size() || data.size() < 0) {
            throw new PerfDataException(name + ": corrupt header: data section offset 0x" + Long.toHexString(data.offset())
                    + " outside the file (" + s.size() + " bytes)");
        }
        List<String> early = new ArrayList<>();
        long dataEnd;
        if (data.size() == 0) {
            early.add(name + ": data size is 0 (the recording was not finished?): reading records up to the end of the file, no features");
            dataEnd = s.size();
        } else if (!data.within(s.size())) {
            dataEnd = s.size();
        } else {
            dataEnd = data.end();
            long table = featureTableBefore(s, data, bitCount(bits));
            if (table != dataEnd) {
                early.add(name + ": data section claims " + data.size() + " bytes but the feature index table starts at 0x"
                        + Long.toHexString(table) + ", " + (dataEnd - table) + " bytes earlier: records read up to there,"
                        + " features from that table (damaged data.size?)");
                dataEnd = table;
            }
        }
        PerfDataFile f = new PerfDataFile(name, h, s, null, data.offset(), dataEnd);
        if (data.size() != 0 && !data.within(s.size())) {
            f.truncation = new long[] {data.size(), s.size()};
        }
        f.warnings.addAll(early);
        f.readAttrs();
        if (data.size() != 0 && data.within(s.size())) {
            f.readFeatureTable();
        }
        f.applyEventDescNames();
        return f;
    }

    private static int bitCount(long[] bits) {
        int n = 0;
        for (long b : bits) {
            n += Long.bitCount(b);
        }
        return n;
    }

    /**
     * Where the feature index table of {@code n} entries is: right after the data section, unless
     * the table there is unsound (most sections outside the file or inside the data) and a sound
     * one starts a few 8-byte steps earlier, as when data.size was written too large (the last
     * "records" would be the table itself).
     */
    private static long featureTableBefore(ByteSource s, PerfFileSection data, int n) {
        long end = data.end();
        if (n == 0 || badSections(s, data.offset(), end, n) <= 2) {
            return end;
        }
        for (long t = end - 8; t > data.offset() && end - t <= MAX_TABLE_SHIFT; t -= 8) {
            if (badSections(s, data.offset(), t, n) == 0) {
                return t;
            }
        }
        return end;
    }

    /** How far back {@link #featureTableBefore} looks for the table: one page. */
    private static final long MAX_TABLE_SHIFT = 4096;

    /** Sections of the table at {@code table} that are outside the file, inside the data or before the table's end. */
    private static int badSections(ByteSource s, long dataStart, long table, int n) {
        if (!s.contains(table, 16L * n)) {
            return n;
        }
        int bad = 0;
        for (int i = 0; i < n; i++) {
            PerfFileSection sec = new PerfFileSection(s.u64(table + 16L * i), s.u64(table + 16L * i + 8));
            if (!sec.within(s.size()) || Long.compareUnsigned(sec.offset(), table + 16L * n) < 0) {
                bad++;
            }
        }
        return bad;
    }

    private void readAttrs() {
        PerfFileSection attrs = header.attrs();
        long n = attrs.size() / header.attrSize();
        long p = attrs.offset();
        long end = attrs.end();
        for (int i = 0; i < n; i++) {
            if (p + PerfEventAttr.PERF_ATTR_SIZE_VER0 + 16 > end) {
                throw new PerfDataException(name + ": corrupt attrs section: entry " + i + " runs past its end");
            }
            int asz = src.s32(p + 4);
            if (asz == 0) {
                asz = PerfEventAttr.PERF_ATTR_SIZE_VER0;
            }
            if (asz < PerfEventAttr.PERF_ATTR_SIZE_VER0 || p + asz + 16 > end) {
                throw new PerfDataException(name + ": corrupt attrs section: entry " + i + " has attr.size " + asz);
            }
            PerfEventAttr attr = PerfEventAttr.decode(src, p, asz);
            PerfFileSection idSec = new PerfFileSection(src.u64(p + asz), src.u64(p + asz + 8));
            if (!idSec.within(src.size())) {
                throw new PerfDataException(name + ": corrupt attrs section: the ids of event " + i + " (offset 0x"
                        + Long.toHexString(idSec.offset()) + ", size " + idSec.size() + ") lie outside the file");
            }
            long[] ids = new long[(int) (idSec.size() / 8)];
            for (int k = 0; k < ids.length; k++) {
                ids[k] = src.u64(idSec.offset() + 8L * k);
            }
            events.add(new EventDesc(i, attr, ids, EventNames.of(attr)));
            p += asz + 16;
        }
        if (n == 0) {
            warnings.add(name + ": the file defines no events (attrs section is empty)");
        }
    }

    private void readFeatureTable() {
        int[] bits = header.featureBits();
        long table = dataEnd;
        if (bits.length == 0) {
            return;
        }
        if (!src.contains(table, 16L * bits.length)) {
            warnings.add(name + ": feature index table at 0x" + Long.toHexString(table)
                    + " runs past the end of the file: no features available");
            return;
        }
        PerfFileSection data = new PerfFileSection(dataStart, dataEnd - dataStart);
        List<String> bad = new ArrayList<>();
        List<String> badNames = new ArrayList<>();
        for (int i = 0; i < bits.length; i++) {
            PerfFileSection sec = new PerfFileSection(src.u64(table + 16L * i), src.u64(table + 16L * i + 8));
            featureBits.add(bits[i]);
            String where = "feature " + featureName(bits[i]) + " (offset 0x" + Long.toHexString(sec.offset()) + ", size "
                    + Long.toUnsignedString(sec.size()) + ")";
            if (!sec.within(src.size())) {
                bad.add(name + ": " + where + " lies past the end of the file: unavailable");
                badNames.add(featureName(bits[i]));
            } else if (sec.overlaps(data)) {
                bad.add(name + ": " + where + " points into the data section: unavailable");
                badNames.add(featureName(bits[i]));
            } else {
                features.put(bits[i], src.slice(sec.offset(), sec.size()));
            }
        }
        if (bad.size() <= 2) {
            warnings.addAll(bad);
        } else {
            // many at once: the table itself is off (e.g. a wrong data.size), say so in one line
            warnings.add(name + ": " + bad.size() + " of " + bits.length + " feature sections lie outside the file or inside"
                    + " the data (" + String.join(", ", badNames) + "): the feature index table at 0x"
                    + Long.toHexString(table) + " looks damaged, those features are unavailable");
        }
    }

    /** Pipe mode: take the events and features from the HEADER_ATTR / HEADER_FEATURE records at the start. */
    private void readPipePrefix() {
        long p = dataStart;
        while (true) {
            ByteSource s;
            long at;
            if (stream != null) {
                if (!stream.ensure(p, 8)) {
                    break;
                }
                int size = RecordDecoder.size(stream.view().withOrder(header.order()), p - stream.base());
                if (size < 8 || !stream.ensure(p, size)) {
                    break;
                }
                s = stream.view().withOrder(header.order());
                at = p - stream.base();
            } else {
                s = src;
                at = p;
                if (!s.contains(at, 8) || RecordDecoder.size(s, at) < 8 || !s.contains(at, RecordDecoder.size(s, at))) {
                    break;
                }
            }
            int type = RecordDecoder.type(s, at);
            if (type != RecordType.PERF_RECORD_HEADER_ATTR && type != RecordType.PERF_RECORD_HEADER_FEATURE) {
                break;
            }
            PerfRecord r;
            try {
                r = decoder.decode(s, at, p);
            } catch (PerfDataException e) {
                break;
            }
            accept(r);
            p += RecordDecoder.size(s, at);
        }
        prefixEnd = p;
        applyEventDescNames();
    }

    /** Registers a pipe-mode HEADER_ATTR / HEADER_FEATURE record (once, by offset). */
    private void accept(PerfRecord r) {
        if (r instanceof HeaderAttrRecord a) {
            events.add(new EventDesc(events.events().size(), a.attr(), a.ids(), EventNames.of(a.attr())));
        } else if (r instanceof HeaderFeatureRecord hf) {
            int bit = hf.featId();
            // a body-less record is perf's end mark (feat_id = its HEADER_LAST_FEATURE), except for
            // the features whose presence is their information
            boolean present = hf.body().size() > 0 || bit == Feature.BRANCH_STACK.bit() || bit == Feature.STAT.bit();
            if (bit > 0 && bit < FileHeader.HEADER_FEAT_BITS && present && !features.containsKey(bit)) {
                featureBits.add(bit);
                ByteSource body = hf.body();
                // a stream's buffer is reused: keep a copy
                features.put(bit, stream == null ? body : ByteSource.wrap(name, body.bytes(0, (int) body.size())).withOrder(header.order()));
            } else if (present && (bit == Feature.BPF_PROG_INFO.bit() || bit == Feature.BPF_BTF.bit())) {
                mergeCounted(bit, hf.body());
            }
        }
    }

    /**
     * A later BPF_PROG_INFO or BPF_BTF record of a stream (jperf writes one as each program is
     * captured): both bodies are a u32 count and that many entries, so the feature becomes the
     * sum of the counts and the entries of both, and is decoded again when next asked for.
     */
    private synchronized void mergeCounted(int bit, ByteSource more) {
        ByteSource have = features.get(bit);
        if (have.size() < 4 || more.size() < 4 || have.size() + more.size() > Integer.MAX_VALUE - 8) {
            return;
        }
        byte[] a = have.bytes(0, (int) have.size());
        byte[] b = more.bytes(0, (int) more.size());
        ByteBuffer m = ByteBuffer.allocate(a.length + b.length - 4).order(header.order());
        m.putInt(ByteBuffer.wrap(a).order(header.order()).getInt(0) + ByteBuffer.wrap(b).order(header.order()).getInt(0));
        m.put(a, 4, a.length - 4).put(b, 4, b.length - 4);
        features.put(bit, ByteSource.wrap(name, m.array()).withOrder(header.order()));
        decodedFeatures = null;
    }

    /** Names from HEADER_EVENT_DESC, matched to the events by position as perf does. */
    private void applyEventDescNames() {
        ByteSource b = features.get(Feature.EVENT_DESC.bit());
        if (b == null) {
            return;
        }
        try {
            List<EventDescs.Event> descs = EventDescs.decode(b.toByteBuffer()).events();
            for (int i = 0; i < descs.size() && i < events.events().size(); i++) {
                if (!descs.get(i).name().isEmpty()) {
                    events.rename(i, descs.get(i).name());
                }
            }
        } catch (FeatureException | PerfDataException e) {
            warnings.add(name + ": feature EVENT_DESC is damaged (" + e.getMessage() + "): event names derived from the attrs");
        }
    }

    private static String featureName(int bit) {
        return Feature.name(bit);
    }

    public String name() {
        return name;
    }

    public FileHeader header() {
        return header;
    }

    public boolean isPipe() {
        return header.pipe();
    }

    /** The events (perf's evsels) in file order; in pipe mode, those defined so far. */
    public List<EventDesc> events() {
        return List.copyOf(events.events());
    }

    /**
     * The record at {@code pos} of {@code src} decoded in full: a sample read first as a
     * {@link dev.jperf.format.record.SampleView} (same source, position and file offset).
     */
    public PerfRecord decode(ByteSource src, long pos, long offset) {
        return decoder.decode(src, pos, offset);
    }

    /** The event a sample id belongs to (perf's rule: single event or id 0 = the first); null if none. */
    public EventDesc eventOf(long id) {
        return events.eventOf(id);
    }

    /** Feature bits present in the file (the header bitmap, or the pipe's HEADER_FEATURE records), in order. */
    public List<Integer> featureBits() {
        List<Integer> l = new ArrayList<>(featureBits);
        Collections.sort(l);
        return l;
    }

    /**
     * The body of feature {@code bit} (HEADER_* number), bounds-checked: empty when absent or
     * unusable (a warning says why).
     */
    public Optional<ByteSource> featureBody(int bit) {
        return Optional.ofNullable(features.get(bit));
    }

    /**
     * The feature sections, decoded (once) into typed values. A body that fails to decode is kept
     * raw in the result and reported as a warning; the other features stay usable.
     */
    public synchronized Features features() {
        if (decodedFeatures == null) {
            Map<Integer, ByteBuffer> bodies = new TreeMap<>();
            features.forEach((bit, body) -> {
                if (body.size() > Integer.MAX_VALUE - 8) {
                    warnings.add(name + ": feature " + Feature.name(bit) + " of " + body.size() + " bytes is too large: ignored");
                } else {
                    bodies.put(bit, ByteBuffer.wrap(body.bytes(0, (int) body.size())).order(body.order()));
                }
            });
            decodedFeatures = Features.decode(bodies);
            for (String w : decodedFeatures.warnings()) {
                if (!warnings.contains(name + ": " + w)) { // a stream's BPF features may be decoded again
                    warnings.add(name + ": " + w);
                }
            }
        }
        return decodedFeatures;
    }

    /** The data section: where records start and end (file mode: data.offset / end; pipe mode: after the header). */
    public PerfFileSection dataSection() {
        return new PerfFileSection(dataStart, dataEnd == Long.MAX_VALUE ? -1 : dataEnd - dataStart);
    }

    /**
     * Problems found so far (one line each); reading records may add more. A truncated file's data
     * section is one line: once the records were read, with the offset where the last whole one ends.
     */
    public List<String> warnings() {
        if (truncation == null) {
            return List.copyOf(warnings);
        }
        List<String> out = new ArrayList<>();
        out.add(truncation(truncatedAt).get());
        out.addAll(warnings);
        return out;
    }

    /**
     * The one line about a data section that runs past the end of the file, naming where the
     * records stopped: {@code stoppedAt} as {@link RecordWarnings#truncatedAt} gives it, or -1 when
     * they were not read. Empty when the data section is whole (always for a stream). With a
     * stream's default sink, {@link #warnings()} starts with it.
     */
    public Optional<String> truncation(long stoppedAt) {
        if (truncation == null) {
            return Optional.empty();
        }
        return Optional.of(name + ": data section claims " + truncation[0] + " bytes but the file ends at " + truncation[1]
                + (stoppedAt < 0 ? ": the records past the end are missing"
                        : ": records after 0x" + Long.toHexString(stoppedAt) + " are missing")
                + " (truncated file?)");
    }

    /** The default sink of a record stream: this file's {@link #warnings()}. */
    private final class FileWarnings implements RecordWarnings {
        @Override
        public void warn(String line) {
            warnings.add(line);
        }

        @Override
        public void truncatedAt(long offset) {
            PerfDataFile.this.truncatedAt = offset; // one line for the whole damage (warnings())
        }
    }

    /** Pipe mode: HEADER_ATTR / HEADER_FEATURE records met after the leading ones define more events and features. */
    private final class PipeHeaders implements Consumer<PerfRecord> {
        @Override
        public void accept(PerfRecord r) {
            PerfDataFile.this.accept(r);
        }
    }

    /**
     * The records of the data section in file order (for a stream: once only). Records inside
     * COMPRESSED records follow the COMPRESSED record itself. Damage found on the way is added
     * to {@link #warnings()}.
     */
    public RecordStream records() {
        return records(new FileWarnings());
    }

    /**
     * {@link #records()}, with the damage found while reading records reported to {@code sink}
     * instead of {@link #warnings()} (which keeps the header's and the features'); a truncated
     * file's one line is then built with {@link #truncation(long)} from where the sink is told the
     * records stopped.
     */
    public RecordStream records(RecordWarnings sink) {
        if (stream != null) {
            if (streamTaken) {
                throw new IllegalStateException(name + ": a stream can be read only once");
            }
            streamTaken = true;
        }
        FileChunks chunks = channel == null ? null : new FileChunks(channel, name, header.order());
        return new RecordStream(name, header.order(), decoder, events, src, stream, chunks, dataStart, dataEnd, prefixEnd,
                truncation != null, sink, new PipeHeaders());
    }

    /** Where readers of the records (report's session) say how far they got; {@link ReadProgress#NONE} by default. */
    public void onProgress(ReadProgress p) {
        progress = p;
    }

    /** See {@link #onProgress}. */
    public ReadProgress progress() {
        return progress;
    }

    @Override
    public void close() {
        // mappings are released by the GC; the channel is ours
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // read-only: nothing to lose
            }
        }
    }
}
