package dev.jperf.format.feature;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Little-endian builder of a feature body (perf's do_write/do_write_string). */
public final class FeatureWriter {
    /** perf's NAME_ALIGN: string lengths are rounded up to this. */
    public static final int NAME_ALIGN = 64;

    private ByteBuffer buf = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);

    private ByteBuffer room(int n) {
        if (buf.remaining() < n) {
            ByteBuffer b = ByteBuffer.allocate(Math.max(buf.capacity() * 2, buf.position() + n)).order(ByteOrder.LITTLE_ENDIAN);
            buf.flip();
            b.put(buf);
            buf = b;
        }
        return buf;
    }

    public FeatureWriter u16(int v) {
        room(2).putShort((short) v);
        return this;
    }

    public FeatureWriter u32(int v) {
        room(4).putInt(v);
        return this;
    }

    public FeatureWriter u64(long v) {
        room(8).putLong(v);
        return this;
    }

    public FeatureWriter bytes(byte[] b) {
        room(b.length).put(b);
        return this;
    }

    public FeatureWriter zeros(int n) {
        room(n).put(new byte[n]);
        return this;
    }

    /** Length of a perf string of {@code utf8Length} bytes: text + NUL rounded up to 64. */
    public static int stringLength(int utf8Length) {
        return (utf8Length + 1 + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;
    }

    /** perf string: u32 len = pad64(strlen + 1), the text, NULs up to len. */
    public FeatureWriter string(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        int len = stringLength(b.length);
        u32(len);
        bytes(b);
        return zeros(len - b.length);
    }

    public int size() {
        return buf.position();
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf.array(), buf.position());
    }
}
