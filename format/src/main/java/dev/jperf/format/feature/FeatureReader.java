package dev.jperf.format.feature;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Bounds-checked cursor over one feature body (perf's do_read_u32/u64/string). Every count is
 * checked against the bytes left before it sizes anything.
 */
public final class FeatureReader {
    private final ByteBuffer buf;
    private final String what;

    /** Reads {@code body} from its position to its limit, in its byte order; {@code what} names the feature in errors. */
    public FeatureReader(ByteBuffer body, String what) {
        this.buf = body.slice().order(body.order());
        this.what = what;
    }

    public FeatureException error(String problem) {
        return new FeatureException(what + ": " + problem + " (at byte " + buf.position() + " of " + buf.limit() + ")");
    }

    public int remaining() {
        return buf.remaining();
    }

    public ByteBuffer buffer() {
        return buf;
    }

    private void need(long n, String field) {
        if (n > buf.remaining()) {
            throw error(field + " needs " + n + " bytes, " + buf.remaining() + " left");
        }
    }

    public int u16(String field) {
        need(2, field);
        return Short.toUnsignedInt(buf.getShort());
    }

    public int u8(String field) {
        need(1, field);
        return Byte.toUnsignedInt(buf.get());
    }

    public int u32(String field) {
        need(4, field);
        return buf.getInt();
    }

    public long u64(String field) {
        need(8, field);
        return buf.getLong();
    }

    /**
     * A u32 element count, checked so that {@code count * minElementSize} bytes can still follow:
     * no allocation is ever sized by an unchecked count.
     */
    public int count(String field, int minElementSize) {
        long n = Integer.toUnsignedLong(u32(field));
        if (n * Math.max(1, minElementSize) > buf.remaining()) {
            throw error(field + " = " + n + " cannot fit in the " + buf.remaining() + " bytes left");
        }
        return (int) n;
    }

    public byte[] bytes(long n, String field) {
        need(n, field);
        byte[] b = new byte[(int) n];
        buf.get(b);
        return b;
    }

    /** perf string: u32 len, then len bytes holding the NUL-terminated text (padded). */
    public String string(String field) {
        long len = Integer.toUnsignedLong(u32(field + " length"));
        need(len, field);
        int start = buf.position();
        int end = start;
        int limit = start + (int) len;
        while (end < limit && buf.get(end) != 0) {
            end++;
        }
        byte[] b = new byte[end - start];
        buf.get(start, b);
        buf.position(limit);
        return new String(b, StandardCharsets.UTF_8);
    }
}
