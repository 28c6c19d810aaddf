package dev.jperf.format;

import dev.jperf.format.io.ByteSource;
import io.airlift.compress.zstd.ZstdIncrementalFrameDecompressor;
import java.util.Arrays;

/**
 * The decompressed side of PERF_RECORD_COMPRESSED(2): all payloads of a file are consecutive
 * pieces of one zstd stream, so one incremental decompressor is fed across records, and its
 * output (a normal record stream, records possibly split across payloads) accumulates here until
 * whole records can be taken out.
 *
 * <p>aircompressor's incremental decompressor keeps the frame's look-back window before releasing
 * output, so records come out up to one window later than the payload that held them; they still
 * come out in stream order and all of them at the end of the frame.
 */
final class ZstdRecords {
    /** sun.misc.Unsafe.ARRAY_BYTE_BASE_OFFSET, which partialDecompress addresses arrays by. */
    private static final long BASE = sun.misc.Unsafe.ARRAY_BYTE_BASE_OFFSET;

    private static final int BLOCK_HEADER_SIZE = 3;
    private static final int STEP = 1 << 17;

    private final String name;
    private final ZstdIncrementalFrameDecompressor dec = new ZstdIncrementalFrameDecompressor();
    private byte[] in = new byte[1 << 16];
    private int inPos;
    private int inLimit;
    private byte[] out = new byte[1 << 20];
    private int outPos;
    private int outLimit;
    private ByteSource view;
    /** Offset in the decompressed stream of out[0]. */
    private long outBase;

    ZstdRecords(String name) {
        this.name = name;
        this.view = ByteSource.wrap(name + " (decompressed)", out);
    }

    /** Appends one payload; it is decompressed on demand by {@link #fill(int)}. */
    void feed(ByteSource src, long off, int len) {
        if (inLimit + len > in.length) {
            System.arraycopy(in, inPos, in, 0, inLimit - inPos);
            inLimit -= inPos;
            inPos = 0;
            if (inLimit + len > in.length) {
                in = Arrays.copyOf(in, Math.max(in.length * 2, inLimit + len));
            }
        }
        src.get(off, in, inLimit, len);
        inLimit += len;
    }

    /**
     * Decompresses until {@code n} bytes are available or the input runs out; output grows only
     * as far as asked (a small payload may expand enormously).
     */
    boolean fill(int n) {
        try {
            while (available() < n) {
                int avail = inLimit - inPos;
                if (avail < dec.getInputRequired() || (avail == 0 && dec.getRequestedOutputSize() == 0)) {
                    return false;
                }
                int room = Math.max(dec.getRequestedOutputSize(), STEP);
                makeRoom(room);
                dec.partialDecompress(in, BASE + inPos, BASE + inLimit, out, outLimit, outLimit + room);
                int consumed = dec.getInputConsumed();
                int produced = dec.getOutputBufferUsed();
                inPos += consumed;
                outLimit += produced;
                if (consumed == 0 && produced == 0) {
                    return false;
                }
            }
            return true;
        } catch (RuntimeException e) {
            // aircompressor reports bad input as MalformedInputException, IllegalArgumentException or IllegalStateException
            throw new PerfDataException(name + ": bad zstd data in a COMPRESSED record: " + e.getMessage(), e);
        }
    }

    /**
     * Ends the stream. perf flushes but never ends its zstd frame, and the decompressor holds the
     * frame's last window back until the frame ends; so when it waits for the next block header,
     * give it an empty last block (3 bytes: last=1, raw, size 0) to release everything; then
     * {@link #fill(int)} returns the rest.
     */
    void finish() {
        if (inPos == inLimit && dec.getInputRequired() == BLOCK_HEADER_SIZE && !dec.isAtStoppingPoint()) {
            if (in.length < BLOCK_HEADER_SIZE) {
                in = new byte[BLOCK_HEADER_SIZE];
            }
            inPos = 0;
            in[0] = 1;
            in[1] = 0;
            in[2] = 0;
            inLimit = BLOCK_HEADER_SIZE;
        }
    }

    /** Compressed bytes received but not decodable yet (a truncated stream leaves some). */
    int pendingInput() {
        return inLimit - inPos;
    }

    private void makeRoom(int n) {
        if (out.length - outLimit >= n) {
            return;
        }
        if (outPos > 0) {
            System.arraycopy(out, outPos, out, 0, outLimit - outPos);
            outLimit -= outPos;
            outBase += outPos;
            outPos = 0;
        }
        if (out.length - outLimit < n) {
            out = Arrays.copyOf(out, Math.max(out.length * 2, outLimit + n));
        }
        view = ByteSource.wrap(name + " (decompressed)", out);
    }

    /** Bytes decompressed and not yet taken. */
    int available() {
        return outLimit - outPos;
    }

    ByteSource view() {
        return view;
    }

    /** Position in {@link #view()} of the next undelivered byte. */
    int position() {
        return outPos;
    }

    /** Offset in the decompressed stream of the next undelivered byte. */
    long streamOffset() {
        return outBase + outPos;
    }

    void advance(int n) {
        outPos += n;
    }
}
