package dev.jperf.format.writer;

import dev.jperf.format.feature.Feature;
import dev.jperf.format.header.FileHeader;
import dev.jperf.format.record.RecordType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Writes perf's pipe mode ({@code perf record -o -}), as perf 6.1 does: a 16-byte
 * perf_pipe_file_header (magic, size 16), one PERF_RECORD_HEADER_ATTR per event (attr + ids), then,
 * before the first record, one PERF_RECORD_HEADER_FEATURE per feature set (in bit order, the body
 * exactly as in a file's feature section) and the end mark (feat_id perf 6.1's
 * HEADER_LAST_FEATURE), then the records as they come (perf-data-format.md §2).
 *
 * <p>Features perf 6.1 never sends down a pipe (its FEAT_OPN ones: TRACING_DATA, BUILD_ID,
 * BRANCH_STACK, AUXTRACE, STAT, CACHE, DIR_FORMAT, HYBRID_TOPOLOGY) are not sent either.
 *
 * <p>A pipe cannot go back: a feature set after the first record is not written (perf 6.1 sends
 * SAMPLE_TIME, BPF_PROG_INFO and BPF_BTF with what it had at start, and no BUILD_ID).
 * Records are buffered and written on {@link #checkpoint()}, when the buffer fills, and on
 * {@link #close()}. A write failure (the reader went away) stops the writer with one
 * {@link IOException} line; later appends throw it again.
 */
public final class PerfPipeWriter implements PerfDataOutput {
    /** perf_record_header_feature: header + u64 feat_id, then the body. */
    private static final int FEATURE_RECORD_HEADER = 16;
    private static final int MAX_RECORD = 0xffff;
    /** perf 6.1's feat_ops without .synthesize: written to files only. */
    private static final Set<Feature> FILE_ONLY = EnumSet.of(Feature.TRACING_DATA, Feature.BUILD_ID,
            Feature.BRANCH_STACK, Feature.AUXTRACE, Feature.STAT, Feature.CACHE, Feature.DIR_FORMAT,
            Feature.HYBRID_TOPOLOGY);

    private final WritableByteChannel channel;
    private final String name;
    private final ByteBuffer buffer;
    private final byte[][] features = new byte[FileHeader.HEADER_FEAT_BITS][];
    private boolean featuresSent;
    private long written;
    private IOException failure;
    private boolean closed;

    private PerfPipeWriter(WritableByteChannel channel, String name, int bufferSize) {
        this.channel = channel;
        this.name = name;
        this.buffer = ByteBuffer.allocateDirect(bufferSize).order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Starts the stream on {@code channel}: the pipe header and the attrs (each normalised to 128
     * bytes as in {@link PerfDataWriter#normaliseAttr}). {@code name} is what messages call it ("-").
     */
    public static PerfPipeWriter create(WritableByteChannel channel, String name, List<PerfDataWriter.EventAttr> events)
            throws IOException {
        if (events.isEmpty()) {
            throw new IllegalArgumentException("a perf.data stream needs at least one event attr");
        }
        PerfPipeWriter w = new PerfPipeWriter(channel, name, PerfDataWriter.DEFAULT_BUFFER_SIZE);
        ByteBuffer head = ByteBuffer.allocate(FileHeader.PERF_PIPE_HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        head.putLong(FileHeader.PERF_MAGIC2).putLong(FileHeader.PERF_PIPE_HEADER_SIZE).flip();
        w.put(head);
        for (PerfDataWriter.EventAttr e : events) {
            byte[] attr = PerfDataWriter.normaliseAttr(e.attr());
            long[] ids = e.ids();
            int size = 8 + attr.length + 8 * ids.length;
            if (size > MAX_RECORD) {
                throw new IllegalArgumentException(ids.length + " ids are too many for one HEADER_ATTR record");
            }
            ByteBuffer r = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
            r.putInt(RecordType.PERF_RECORD_HEADER_ATTR).putShort((short) 0).putShort((short) size).put(attr);
            for (long id : ids) {
                r.putLong(id);
            }
            w.put(r.flip());
        }
        w.flush();
        return w;
    }

    @Override
    public void setFeature(int bit, byte[] body) {
        features[bit] = PerfDataWriter.featureBody(bit, body);
    }

    @Override
    public void append(ByteBuffer src, int offset, int length) throws IOException {
        ensureWritable();
        sendFeatures();
        int end = offset + length;
        int p = offset;
        while (p < end) {
            int unit = PerfDataWriter.wholeUnit(src, p, end);
            if (unit < 0) {
                throw PerfDataWriter.notWholeRecord(src, offset, p, end);
            }
            p += unit;
        }
        put(src.slice(offset, length));
    }

    /**
     * Appends one HEADER_FEATURE record now, among the records (after the leading ones): how a
     * stream carries what is learnt while recording, e.g. a BPF program's info and BTF once captured.
     *
     * @return false when the body does not fit one record (64 KiB): nothing was written
     */
    public boolean appendFeature(int bit, byte[] body) throws IOException {
        ensureWritable();
        sendFeatures();
        if (FEATURE_RECORD_HEADER + body.length > MAX_RECORD) {
            return false;
        }
        put(featureRecord(bit, body));
        return true;
    }

    /** The HEADER_FEATURE records and the end mark, once, before the first record. */
    private void sendFeatures() throws IOException {
        if (featuresSent) {
            return;
        }
        featuresSent = true;
        for (int bit = 0; bit < features.length; bit++) {
            byte[] body = features[bit];
            if (body == null || FILE_ONLY.contains(Feature.of(bit))) {
                continue;
            }
            if (FEATURE_RECORD_HEADER + body.length > MAX_RECORD) {
                // perf_event__synthesize_features skips a feature that does not fit a record, too
                continue;
            }
            put(featureRecord(bit, body));
        }
        put(featureRecord(Feature.PERF_6_1_LAST_FEATURE, new byte[0]));
    }

    private static ByteBuffer featureRecord(int bit, byte[] body) {
        int size = FEATURE_RECORD_HEADER + body.length;
        ByteBuffer r = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        r.putInt(RecordType.PERF_RECORD_HEADER_FEATURE).putShort((short) 0).putShort((short) size).putLong(bit).put(body);
        return r.flip();
    }

    /** Buffers {@code b} (position to limit), writing the buffer out first when it is full. */
    private void put(ByteBuffer b) throws IOException {
        if (b.remaining() > buffer.remaining()) {
            flush();
        }
        if (b.remaining() > buffer.capacity()) {
            writeFully(b);
        } else {
            buffer.put(b);
        }
    }

    private void flush() throws IOException {
        buffer.flip();
        try {
            writeFully(buffer);
        } finally {
            buffer.clear();
        }
    }

    private void writeFully(ByteBuffer b) throws IOException {
        try {
            while (b.hasRemaining()) {
                written += channel.write(b);
            }
        } catch (IOException e) {
            failure = new IOException(name + ": " + PerfDataWriter.describe(e) + " while writing the stream; stopped after "
                    + written + " bytes", e);
            throw failure;
        }
    }

    /** Sends the features (if no record came yet) and writes out the buffered records. */
    @Override
    public void checkpoint() throws IOException {
        ensureWritable();
        sendFeatures();
        flush();
    }

    @Override
    public IOException failure() {
        return failure;
    }

    @Override
    public long written() {
        return written;
    }

    @Override
    public String name() {
        return name;
    }

    /** Writes what is buffered and closes the channel; after a failure only closes. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (failure == null) {
                sendFeatures();
                flush();
            }
        } finally {
            channel.close();
        }
    }

    private void ensureWritable() throws IOException {
        if (closed) {
            throw new IllegalStateException(name + ": writer is closed");
        }
        if (failure != null) {
            throw failure;
        }
    }
}
