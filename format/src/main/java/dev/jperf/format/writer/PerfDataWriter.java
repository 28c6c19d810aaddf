package dev.jperf.format.writer;

import dev.jperf.format.feature.Feature;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.FileHeader;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.record.RecordType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;

/**
 * Writes a file-mode perf.data that Linux perf 6.1 reads as its own, and that stays readable at
 * every moment while it is being written.
 *
 * <p>Layout (perf-data-format.md §1): 104-byte header, ids, attrs, records, feature index table,
 * feature bodies. The only position a reader derives is "index table = data.offset + data.size",
 * so the writer keeps two invariants, in this write order:
 * <ol>
 *   <li>{@code data.size} in the header only ever covers whole records already on disk (records
 *       are written first, the header after);</li>
 *   <li>the header's feature bitmap is non-zero only while the index table and bodies sit right
 *       after {@code data.offset + data.size}; before records or a later checkpoint overwrite
 *       them, the header is rewritten with the bitmap cleared.</li>
 * </ol>
 * A reader therefore always sees a complete file: at worst the last un-flushed records are missing
 * (they are still in this writer's buffer or the kernel's) and the feature sections are absent
 * between a flush and the next {@link #checkpoint()}. A {@code kill -9} leaves exactly that.
 * Each header write is one 104-byte pwrite within the first page; the page cache, not fsync, is
 * what this protects against (a power loss is out of scope, as for perf).
 *
 * <p>Records are appended as raw bytes exactly as they come from a ring buffer; they are copied into
 * one direct buffer and written with positional {@link FileChannel} writes, no per-record
 * allocation. The buffer is flushed only at record boundaries, and each flush also refreshes
 * {@code data.size}.
 *
 * <p>A write failure (full disk, I/O error) stops the writer: the header is left consistent with
 * the last whole record written, partial bytes after it are cut off, and the failure is thrown as
 * one {@link IOException} line naming the file; later appends throw the same exception.
 *
 * <p>Not thread-safe: one thread (the recorder's drain loop) owns a writer.
 */
public final class PerfDataWriter implements PerfDataOutput {

    /** The default record buffer: large enough to make flushes rare, small against a ring. */
    public static final int DEFAULT_BUFFER_SIZE = 1 << 20;
    /** A record is at most 65535 bytes (u16 size); the buffer must hold any one record. */
    private static final int MIN_BUFFER_SIZE = 1 << 16;

    /**
     * One event of the file: its {@code perf_event_attr} bytes (any size from 64 on; normalised to
     * 128 on write, see {@link #normaliseAttr}) and the kernel ids of its file descriptors.
     */
    public record EventAttr(byte[] attr, long[] ids) {
        public EventAttr {
            attr = attr.clone();
            ids = ids.clone();
        }

        /** An event as a reader found it in a little-endian file. */
        public static EventAttr of(EventDesc e) {
            return new EventAttr(e.attr().raw(), e.ids());
        }

        @Override
        public byte[] attr() {
            return attr.clone();
        }

        @Override
        public long[] ids() {
            return ids.clone();
        }
    }

    private final Path path;
    private final FileChannel channel;
    private final long attrsOffset;
    private final long attrsSize;
    private final long dataOffset;
    private final ByteBuffer buffer;
    /** Direct: a heap buffer would be copied into a temporary direct one at every header write. */
    private final ByteBuffer header = ByteBuffer.allocateDirect(FileHeader.PERF_FILE_HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    private final byte[][] features = new byte[FileHeader.HEADER_FEAT_BITS][];
    /** {@link #appendUnbuffered}'s parts: the buffer, then the caller's one or two. */
    private final ByteBuffer[] gather = new ByteBuffer[3];
    /**
     * Where the channel's own position is (-1: unknown): only {@link #appendUnbuffered}'s
     * gathering writes use and move it, every other write is positional.
     */
    private long channelPosition = -1;

    /** Bytes of whole records on disk after {@link #dataOffset}. */
    private long dataSize;
    /** The {@link #dataSize} the header on disk names. */
    private long publishedSize;
    /** True while the header's bitmap is set and the feature sections follow the data on disk. */
    private boolean featuresOnDisk;
    private IOException failure;
    private boolean closed;

    private PerfDataWriter(Path path, FileChannel channel, long attrsOffset, long attrsSize,
            long dataOffset, int bufferSize) {
        this.path = path;
        this.channel = channel;
        this.attrsOffset = attrsOffset;
        this.attrsSize = attrsSize;
        this.dataOffset = dataOffset;
        this.buffer = ByteBuffer.allocateDirect(bufferSize).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    /** {@link #create(Path, List, int)} with {@link #DEFAULT_BUFFER_SIZE}. */
    public static PerfDataWriter create(Path path, List<EventAttr> events) throws IOException {
        return create(path, events, DEFAULT_BUFFER_SIZE);
    }

    /**
     * Creates (or truncates) {@code path} and writes the header, ids and attrs: from here on the
     * file is a valid perf.data with no records. Callers that want perf's {@code .old} backup call
     * {@link #backupExisting(Path)} first.
     */
    public static PerfDataWriter create(Path path, List<EventAttr> events, int bufferSize) throws IOException {
        if (events.isEmpty()) {
            throw new IllegalArgumentException("a perf.data file needs at least one event attr");
        }
        if (bufferSize < MIN_BUFFER_SIZE) {
            throw new IllegalArgumentException("record buffer of " + bufferSize + " bytes is below " + MIN_BUFFER_SIZE);
        }
        byte[][] attrs = new byte[events.size()][];
        long nIds = 0;
        for (int i = 0; i < attrs.length; i++) {
            attrs[i] = normaliseAttr(events.get(i).attr);
            nIds += events.get(i).ids.length;
        }
        // perf's order: ids right after the header, then the attrs, then the data.
        long idsOffset = FileHeader.PERF_FILE_HEADER_SIZE;
        long attrsOffset = idsOffset + 8 * nIds;
        long entrySize = PerfEventAttr.PERF_ATTR_SIZE_VER7 + 16;
        long attrsSize = entrySize * attrs.length;
        long dataOffset = attrsOffset + attrsSize;
        if (dataOffset > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(nIds + " event ids are too many for one file header");
        }
        ByteBuffer head = ByteBuffer.allocate((int) dataOffset).order(ByteOrder.LITTLE_ENDIAN);
        head.position(FileHeader.PERF_FILE_HEADER_SIZE);
        for (EventAttr e : events) {
            for (long id : e.ids) {
                head.putLong(id);
            }
        }
        long idPos = idsOffset;
        for (int i = 0; i < attrs.length; i++) {
            int n = events.get(i).ids.length;
            head.put(attrs[i]).putLong(idPos).putLong(8L * n);
            idPos += 8L * n;
        }
        FileChannel ch;
        try {
            // 0600 as perf's open(..., S_IRUSR | S_IWUSR): the file holds kernel addresses, command
            // lines and process names of the whole machine; an existing file keeps its owner and mode
            ch = FileChannel.open(path, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING), OWNER_ONLY);
        } catch (IOException e) {
            throw new IOException(path + ": cannot create: " + describe(e), e);
        }
        PerfDataWriter w = new PerfDataWriter(path, ch, attrsOffset, attrsSize, dataOffset, bufferSize);
        try {
            w.fillHeader(false);
            head.put(0, w.header, 0, FileHeader.PERF_FILE_HEADER_SIZE);
            head.clear();
            w.writeFully(head, 0);
        } catch (IOException e) {
            ch.close();
            throw new IOException(path + ": " + describe(e) + " while writing the file header", e);
        }
        return w;
    }

    /**
     * Returns {@code attr} as the 128-byte attr perf 6.1 accepts: smaller attrs are zero-extended
     * (the kernel ABI gives a missing tail the value 0), larger ones (a 6.18 kernel's 136-byte attr)
     * are cut at 128 if the cut bytes are zero, and attr.size is set to 128.
     *
     * @throws IllegalArgumentException if the attr is shorter than 64 bytes or a field beyond byte
     *     128 (config3 on 6.18) is set: perf 6.1 could not represent that event
     */
    public static byte[] normaliseAttr(byte[] attr) {
        if (attr.length < PerfEventAttr.PERF_ATTR_SIZE_VER0) {
            throw new IllegalArgumentException("perf_event_attr of " + attr.length + " bytes is shorter than "
                    + PerfEventAttr.PERF_ATTR_SIZE_VER0);
        }
        for (int i = PerfEventAttr.PERF_ATTR_SIZE_VER7; i < attr.length; i++) {
            if (attr[i] != 0) {
                throw new IllegalArgumentException("perf_event_attr byte " + i + " is set (0x"
                        + Integer.toHexString(attr[i] & 0xff) + "); perf 6.1 reads only "
                        + PerfEventAttr.PERF_ATTR_SIZE_VER7 + "-byte attrs");
            }
        }
        byte[] out = new byte[PerfEventAttr.PERF_ATTR_SIZE_VER7];
        System.arraycopy(attr, 0, out, 0, Math.min(attr.length, PerfEventAttr.PERF_ATTR_SIZE_VER7));
        ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putInt(4, PerfEventAttr.PERF_ATTR_SIZE_VER7);
        return out;
    }

    /**
     * perf's backup rule for an output file: an existing non-empty {@code path} is renamed to
     * {@code path.old}, replacing an older backup.
     *
     * @return the backup's path, or null if there was nothing to keep
     */
    public static Path backupExisting(Path path) throws IOException {
        if (!Files.isRegularFile(path) || Files.size(path) == 0) {
            return null;
        }
        Path old = path.resolveSibling(path.getFileName() + ".old");
        try {
            Files.move(path, old, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new IOException("cannot move " + path + " to " + old + ": " + describe(e), e);
        }
        return old;
    }

    /**
     * Appends whole records: {@code length} bytes of {@code src} from absolute index {@code offset},
     * back-to-back {@code perf_event_header}-framed records (a HEADER_TRACING_DATA or AUXTRACE
     * record together with the payload that follows it). {@code src}'s position is not used.
     *
     * @throws IllegalArgumentException if the bytes do not end on a record boundary (the whole
     *     records before the bad one are appended)
     * @throws IOException if writing failed; the writer has then stopped (see class comment)
     */
    @Override
    public void append(ByteBuffer src, int offset, int length) throws IOException {
        ensureWritable();
        int end = offset + length;
        int run = offset;
        int p = offset;
        while (p < end) {
            int unit = wholeUnit(src, p, end);
            if (unit < 0) {
                copy(src, run, p - run);
                throw notWholeRecord(src, offset, p, end);
            }
            if (unit > buffer.capacity()) {
                copy(src, run, p - run);
                flush();
                writeDirect(src, p, unit);
                run = p + unit;
            } else if (p + unit - run > buffer.remaining()) {
                copy(src, run, p - run);
                flush();
                run = p;
            }
            p += unit;
        }
        copy(src, run, end - run);
    }

    /**
     * Bytes taken by the record at {@code p}: header.size, plus the payload that follows a
     * HEADER_TRACING_DATA (u32 size at 8) or AUXTRACE (u64 size at 8) record (perf-data-format.md
     * §10). -1 when fewer than 8 bytes are left or header.size is below 8.
     */
    private static long unitSize(ByteBuffer b, int p, int end) {
        if (end - p < 8) {
            return -1;
        }
        // the 8-byte header in one read (a recorder appends every record of its rings through here)
        long header = b.getLong(p);
        if (b.order() == ByteOrder.BIG_ENDIAN) {
            header = Long.reverseBytes(header);
        }
        int size = (int) (header >>> 48);
        if (size < 8) {
            return -1;
        }
        long type = header & 0xffffffffL;
        if (type == RecordType.PERF_RECORD_HEADER_TRACING_DATA && size >= 12 && end - p >= 12) {
            return size + le(b, p + 8, 4);
        }
        if (type == RecordType.PERF_RECORD_AUXTRACE && size >= 16 && end - p >= 16) {
            long payload = le(b, p + 8, 8);
            return payload < 0 || payload > Integer.MAX_VALUE ? Long.MAX_VALUE : size + payload;
        }
        return size;
    }

    /** {@link #unitSize} of the record at {@code p} when all its bytes come before {@code end}, else -1. */
    static int wholeUnit(ByteBuffer b, int p, int end) {
        long unit = unitSize(b, p, end);
        return unit < 0 || unit > end - p ? -1 : (int) unit;
    }

    /** The line for appended bytes (from {@code offset}) that stop being whole records at {@code p}. */
    static IllegalArgumentException notWholeRecord(ByteBuffer b, int offset, int p, int end) {
        long unit = unitSize(b, p, end);
        return new IllegalArgumentException("not a whole record at offset " + (p - offset)
                + " of the appended bytes: " + (unit < 0 ? "a record header needs 8 bytes, "
                : "the record takes " + Long.toUnsignedString(unit) + " bytes, ") + (end - p) + " are left");
    }

    /** A little-endian unsigned value of {@code n} bytes, whatever {@code b}'s byte order. */
    private static long le(ByteBuffer b, int at, int n) {
        long v = 0;
        for (int i = n - 1; i >= 0; i--) {
            v = v << 8 | (b.get(at + i) & 0xff);
        }
        return v;
    }

    /**
     * Whole records, not walked again: copied into the buffer, which is flushed first when they do
     * not fit (a run larger than the buffer takes {@link #append}'s way). A recorder writing a
     * file without compression writes its rings through {@link #appendUnbuffered} instead.
     */
    @Override
    public void appendFramed(ByteBuffer src, int offset, int length) throws IOException {
        if (length > buffer.capacity()) {
            append(src, offset, length);
            return;
        }
        ensureWritable();
        if (length > buffer.remaining()) {
            flush();
        }
        copy(src, offset, length);
    }

    /**
     * Whole records written straight from the caller's memory (a ring's mapping, as perf writes
     * it): the records buffered so far first, then {@code first} and {@code second} (null: none)
     * from position to limit, no copy in user space (a 10 s recording's drain spent a quarter of
     * its CPU in that copy, bench/README.md). The header is not refreshed here ({@link #publish}),
     * so the caller may still rewrite these bytes ({@link #truncateUnpublished}).
     *
     * @return where {@code first}'s bytes start, from the start of the data section
     * @throws IOException if writing failed; the writer has then stopped (see class comment)
     */
    public long appendUnbuffered(ByteBuffer first, ByteBuffer second) throws IOException {
        ensureWritable();
        unpublishFeatures();
        // the buffered records (a recorder's FINISHED_ROUND of the pass before) and the caller's
        // in one gathering write: each write(2) of a file costs a few microseconds before it copies
        // a byte (the inode's time, the page cache's locks), as much as a pass's ring walk
        int buffered = buffer.position();
        int parts = 0;
        if (buffered > 0) {
            buffer.flip();
            gather[parts++] = buffer;
        }
        gather[parts++] = first;
        if (second != null) {
            gather[parts++] = second;
        }
        long at = dataOffset + dataSize;
        long total = buffered + first.remaining() + (second == null ? 0 : second.remaining());
        try {
            if (channelPosition != at) {
                channel.position(at);
            }
            for (long done = 0; done < total; ) {
                done += channel.write(gather, 0, parts);
            }
            channelPosition = at + total;
        } catch (IOException e) {
            channelPosition = -1;
            if (buffered > 0) {
                dataSize += wholeRecords(buffer, buffer.position());
                buffer.clear();
            }
            throw stop(e, "while writing records");
        } finally {
            for (int i = 0; i < parts; i++) {
                gather[i] = null;
            }
        }
        if (buffered > 0) {
            buffer.clear();
        }
        long start = dataSize + buffered;
        dataSize += total;
        return start;
    }

    /**
     * Drops the records from {@code size} (from the start of the data section) on, which the
     * caller rewrites: only bytes {@link #appendUnbuffered} wrote and no header names yet.
     */
    public void truncateUnpublished(long size) {
        if (size < publishedSize || size > dataSize || buffer.position() != 0) {
            throw new IllegalStateException(path + ": cannot cut records at " + size + " (" + publishedSize
                    + " published, " + dataSize + " written, " + buffer.position() + " buffered)");
        }
        dataSize = size;
    }

    /**
     * Refreshes {@code data.size} in the header once a buffer's worth of records was written
     * since the header last named it: as often as the buffered path's flushes refresh it.
     */
    public void publish() throws IOException {
        ensureWritable();
        if (dataSize - publishedSize >= buffer.capacity()) {
            writeHeader(false);
        }
    }

    /** Writes one record larger than the buffer (a big tracing/AUX payload) straight to the file. */
    private void writeDirect(ByteBuffer src, int at, int n) throws IOException {
        unpublishFeatures();
        try {
            writeFully(src.slice(at, n), dataOffset + dataSize);
        } catch (IOException e) {
            throw stop(e, "while writing records");
        }
        dataSize += n;
        writeHeader(false);
    }

    /** Appends the whole records between {@code src}'s position and limit and consumes them. */
    public void append(ByteBuffer src) throws IOException {
        int n = src.remaining();
        append(src, src.position(), n);
        src.position(src.position() + n);
    }

    /** Appends whole records from a byte array. */
    public void append(byte[] src, int offset, int length) throws IOException {
        append(ByteBuffer.wrap(src), offset, length);
    }

    private void copy(ByteBuffer src, int from, int n) {
        buffer.put(buffer.position(), src, from, n);
        buffer.position(buffer.position() + n);
    }

    /**
     * Sets the body of feature {@code bit} (HEADER_* number) written at the next
     * {@link #checkpoint()} or {@link #close()}; null removes it. BPF_PROG_INFO bodies are
     * normalised to 232-byte bpf_prog_info entries (see {@link BpfProgInfoNormaliser}).
     */
    @Override
    public void setFeature(int bit, byte[] body) {
        features[bit] = featureBody(bit, body);
    }

    /**
     * What an output keeps of feature {@code bit}'s {@code body}: its own copy, BPF_PROG_INFO
     * normalised; null stays null.
     *
     * @throws IllegalArgumentException if {@code bit} is not a feature bit
     */
    static byte[] featureBody(int bit, byte[] body) {
        if (bit < 0 || bit >= FileHeader.HEADER_FEAT_BITS) {
            throw new IllegalArgumentException("feature bit " + bit + " is outside 0.." + (FileHeader.HEADER_FEAT_BITS - 1));
        }
        if (body == null) {
            return null;
        }
        return bit == Feature.BPF_PROG_INFO.bit() ? BpfProgInfoNormaliser.normalise(body) : body.clone();
    }

    /** Bytes of records on disk and covered by the header (excludes records still buffered). */
    public long dataSize() {
        return dataSize;
    }

    /** Where the records start. */
    public long dataOffset() {
        return dataOffset;
    }

    /** The failure that stopped this writer, or null. */
    @Override
    public IOException failure() {
        return failure;
    }

    public Path path() {
        return path;
    }

    @Override
    public String name() {
        return path.toString();
    }

    /** The file's size as written so far. */
    @Override
    public long written() {
        try {
            return channel.isOpen() ? channel.size() : Files.size(path);
        } catch (IOException e) {
            return dataOffset + dataSize;
        }
    }

    /**
     * Writes buffered records and refreshes {@code data.size}. Cheaper than {@link #checkpoint()}
     * (no feature sections); features already on disk are dropped from the header.
     */
    public void flush() throws IOException {
        ensureWritable();
        if (buffer.position() == 0) {
            return;
        }
        unpublishFeatures();
        writeBuffered();
        writeHeader(false);
    }

    /** Writes the buffered records (the header is the caller's). */
    private void writeBuffered() throws IOException {
        if (buffer.position() == 0) {
            return;
        }
        buffer.flip();
        long at = dataOffset + dataSize;
        try {
            while (buffer.hasRemaining()) {
                at += channel.write(buffer, at);
            }
        } catch (IOException e) {
            dataSize += wholeRecords(buffer, buffer.position());
            buffer.clear();
            throw stop(e, "while writing records");
        }
        dataSize += buffer.limit();
        buffer.clear();
    }

    /** The records about to be written overwrite the index table: take it out of the header first. */
    private void unpublishFeatures() throws IOException {
        if (featuresOnDisk) {
            writeHeader(false);
            featuresOnDisk = false;
        }
    }

    /** The bytes of whole records among the first {@code n} of {@code buf}, which holds whole records. */
    private static int wholeRecords(ByteBuffer buf, int n) {
        int p = 0;
        int unit;
        while ((unit = wholeUnit(buf, p, n)) > 0) {
            p += unit;
        }
        return p;
    }

    /**
     * Makes the file complete as it is now: writes buffered records, the feature index table and
     * bodies after them, then the header naming both. A recorder calls this at least once a second;
     * the next flush overwrites the feature sections (after unpublishing them). With no records yet
     * it only flushes: perf reads data.size 0 as "unfinished" and would take the index table for
     * records.
     */
    @Override
    public void checkpoint() throws IOException {
        flush();
        if (dataSize == 0) {
            return;
        }
        // Sections already published are rewritten in place (bodies may have grown, bits changed):
        // a kill in the middle of a multi-page write must not leave them under a header naming them.
        unpublishFeatures();
        ByteBuffer sections = encodeFeatures(dataOffset + dataSize);
        long at = dataOffset + dataSize;
        try {
            writeFully(sections, at);
            // Old, longer sections may lie beyond; keep the file exactly as long as its contents.
            channel.truncate(at + sections.limit());
        } catch (IOException e) {
            throw stop(e, "while writing the feature sections");
        }
        writeHeader(true);
        featuresOnDisk = true;
    }

    /** Index table (one {offset, size} per set bit, bit order) then the bodies, starting at {@code at}. */
    private ByteBuffer encodeFeatures(long at) {
        int n = 0;
        long bodies = 0;
        for (byte[] f : features) {
            if (f != null) {
                n++;
                bodies += f.length;
            }
        }
        long total = 16L * n + bodies;
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("feature sections of " + total + " bytes are too large");
        }
        ByteBuffer out = ByteBuffer.allocate((int) total).order(ByteOrder.LITTLE_ENDIAN);
        long body = at + 16L * n;
        for (byte[] f : features) {
            if (f != null) {
                out.putLong(body).putLong(f.length);
                body += f.length;
            }
        }
        for (byte[] f : features) {
            if (f != null) {
                out.put(f);
            }
        }
        return out.flip();
    }

    /**
     * Finishes the file: a last {@link #checkpoint()} and close. After a failure this makes a
     * best-effort attempt to add the feature sections and closes without throwing again (the
     * failure was already reported and the file is readable either way).
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        try {
            if (failure == null) {
                checkpoint();
            } else {
                finishAfterFailure();
            }
        } finally {
            closed = true;
            channel.close();
        }
    }

    private void finishAfterFailure() {
        if (dataSize == 0) {
            return;
        }
        try {
            ByteBuffer sections = encodeFeatures(dataOffset + dataSize);
            writeFully(sections, dataOffset + dataSize);
            writeHeader(true);
        } catch (IOException | RuntimeException e) {
            // The header still names the records only; that file is complete without features.
            try {
                channel.truncate(dataOffset + dataSize);
            } catch (IOException ignored) {
                // Bytes after data.size are never read through this header.
            }
        }
    }

    /** Marks the writer stopped, cuts partial bytes after the last whole record, returns the line to report. */
    private IOException stop(IOException cause, String doing) {
        try {
            fillHeader(false);
            writeFully(header, 0);
            featuresOnDisk = false;
            channel.truncate(dataOffset + dataSize);
        } catch (IOException e) {
            // Best effort: the header already written never covers partial records.
        }
        failure = new IOException(path + ": " + describe(cause) + " " + doing + "; stopped after "
                + dataSize + " bytes of records, which the file keeps readable", cause);
        return failure;
    }

    private void ensureWritable() throws IOException {
        if (closed) {
            throw new IllegalStateException(path + ": writer is closed");
        }
        if (failure != null) {
            throw failure;
        }
    }

    private void fillHeader(boolean withFeatures) {
        ByteBuffer h = header;
        h.clear();
        h.putLong(FileHeader.MAGIC, FileHeader.PERF_MAGIC2);
        h.putLong(FileHeader.SIZE, FileHeader.PERF_FILE_HEADER_SIZE);
        h.putLong(FileHeader.ATTR_SIZE, PerfEventAttr.PERF_ATTR_SIZE_VER7 + 16);
        h.putLong(FileHeader.ATTRS, attrsOffset);
        h.putLong(FileHeader.ATTRS + 8, attrsSize);
        h.putLong(FileHeader.DATA, dataOffset);
        h.putLong(FileHeader.DATA + 8, dataSize);
        publishedSize = dataSize;
        h.putLong(FileHeader.EVENT_TYPES, 0); // event_types: unused since perf 3.x
        h.putLong(FileHeader.EVENT_TYPES + 8, 0);
        long[] words = new long[FileHeader.HEADER_FEAT_BITS / 64];
        if (withFeatures) {
            for (int bit = 0; bit < FileHeader.HEADER_FEAT_BITS; bit++) {
                if (features[bit] != null) {
                    words[bit / 64] |= 1L << (bit % 64);
                }
            }
        }
        for (int i = 0; i < words.length; i++) {
            h.putLong(FileHeader.ADDS_FEATURES + 8 * i, words[i]);
        }
    }

    private void writeHeader(boolean withFeatures) throws IOException {
        fillHeader(withFeatures);
        try {
            writeFully(header, 0);
        } catch (IOException e) {
            throw failure != null ? failure : stop(e, "while writing the file header");
        }
    }

    /** Writes {@code b} from position to limit at file offset {@code at}; returns the offset after it. */
    private long writeFully(ByteBuffer b, long at) throws IOException {
        while (b.hasRemaining()) {
            at += channel.write(b, at);
        }
        return at;
    }

    /** The OS's words for an I/O failure ("No space left on device"), without Java class names. */
    static String describe(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "Permission denied";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }
}
