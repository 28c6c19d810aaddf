package dev.jperf.format.writer;

import dev.jperf.format.feature.Compression;
import dev.jperf.format.record.RecordType;
import io.airlift.compress.zstd.ZstdCompressor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Packs record bytes into PERF_RECORD_COMPRESSED records (perf record -z): a record header and a
 * zstd payload whose decompressed bytes continue the record stream (a record may be cut between
 * two payloads; perf-data-format.md §6).
 *
 * <p>perf keeps one zstd stream open for the whole file and flushes it per record; readers
 * (perf's {@code zstd_decompress_stream}, jperf's {@code ZstdRecords}) feed every payload to one
 * streaming decompressor, which also reads one complete frame after another. aircompressor
 * compresses whole frames only, so each payload here is one complete frame: perf's libzstd reads
 * it (RecordCompressorTest checks with perf itself). Each frame holds at most {@code mmap_len}
 * bytes (perf's reader decompresses a payload into a buffer of that size) and compresses to a
 * payload that fits a record (u16 size) even when nothing compresses.
 *
 * <p>aircompressor 0.27 has one compression level, zstd's 3: that is the level written and
 * reported, whatever perf's {@code -z} level was asked.
 */
public final class RecordCompressor {
    /** The zstd level of aircompressor's frame compressor (CompressionParameters.DEFAULT_COMPRESSION_LEVEL). */
    public static final int LEVEL = 3;
    /** perf_record_compressed: just the header, then the payload. */
    private static final int HEADER = 8;
    private static final int MAX_RECORD = 0xffff;

    private final ZstdCompressor zstd = new ZstdCompressor();
    private final int mmapLen;
    private final byte[] in;
    private final byte[] out;
    private int pending;
    private long transferred;
    private long compressed;

    /** {@code mmapLen}: the ring size perf's HEADER_COMPRESSED carries ((data pages + 1) x page size). */
    public RecordCompressor(int mmapLen) {
        int chunk = Math.min(mmapLen, MAX_RECORD);
        while (HEADER + zstd.maxCompressedLength(chunk) > MAX_RECORD) {
            chunk -= 1024;
        }
        if (chunk <= 0) {
            throw new IllegalArgumentException("mmap_len " + mmapLen + " is too small to compress into");
        }
        this.mmapLen = mmapLen;
        this.in = new byte[chunk];
        this.out = new byte[HEADER + zstd.maxCompressedLength(chunk)];
    }

    /**
     * Takes {@code length} record bytes of {@code src} from index {@code offset} (any cut of the
     * stream); each full chunk goes out to {@code output} at once as a COMPRESSED record.
     */
    public void add(ByteBuffer src, int offset, int length, PerfDataOutput output) throws IOException {
        int p = offset;
        int end = offset + length;
        while (p < end) {
            int n = Math.min(end - p, in.length - pending);
            src.get(p, in, pending, n);
            pending += n;
            p += n;
            if (pending == in.length) {
                flush(output);
            }
        }
    }

    /** Writes what is pending as one COMPRESSED record (nothing if nothing is pending). */
    public void flush(PerfDataOutput output) throws IOException {
        if (pending == 0) {
            return;
        }
        int size = HEADER + zstd.compress(in, 0, pending, out, HEADER, out.length - HEADER);
        ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putInt(0, RecordType.PERF_RECORD_COMPRESSED)
                .putShort(4, (short) 0).putShort(6, (short) size);
        transferred += pending;
        compressed += size;
        pending = 0;
        output.append(ByteBuffer.wrap(out), 0, size);
    }

    /** Record bytes compressed so far. */
    public long transferred() {
        return transferred;
    }

    /** Bytes of the COMPRESSED records written so far. */
    public long compressed() {
        return compressed;
    }

    /**
     * HEADER_COMPRESSED as perf writes it: version 0 (perf never sets it), zstd, the level, the
     * ratio of bytes in to bytes out rounded (0 before anything was compressed) and mmap_len.
     */
    public Compression feature() {
        int ratio = compressed == 0 ? 0 : (int) ((double) transferred / compressed + 0.5);
        return new Compression(0, Compression.ZSTD, LEVEL, ratio, mmapLen);
    }
}
