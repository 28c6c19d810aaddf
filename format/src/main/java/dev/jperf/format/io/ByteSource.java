package dev.jperf.format.io;

import dev.jperf.format.PerfDataException;
import dev.jperf.format.unsafe.Unsafes;
import java.io.IOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import sun.misc.Unsafe;

/**
 * Bounds-checked absolute-offset reads over a memory-mapped file or a byte array, in one byte
 * order. A file is mapped in windows of {@value #WINDOW_SPAN} bytes that start every
 * {@value #WINDOW_STRIDE} bytes, so any read of up to {@value #OVERLAP} bytes lies inside one
 * window (records are at most 64 KiB) and files over 2 GiB work. Longer reads that straddle two
 * windows are copied piecewise.
 *
 * <p>Every read outside {@code [0, size())} throws {@link PerfDataException} naming the source.
 * A slice shares the bytes of its parent; it is cheap (no copy).
 *
 * <p>The scalar reads load through {@code sun.misc.Unsafe} (module jdk.unsupported: the array
 * behind a window, or the address of its direct or mapped buffer), after the bounds check above,
 * which is what keeps them inside the bytes: report runs under C1, which cannot inline a
 * ByteBuffer's getLong once both heap and direct buffers reach these methods (each read was a
 * call through a vtable stub into a chain of checks), while Unsafe's is one load.
 */
public final class ByteSource {
    static final int STRIDE_SHIFT = 29;
    /** Distance between window starts (512 MiB). */
    public static final long WINDOW_STRIDE = 1L << STRIDE_SHIFT;
    /** Bytes shared by consecutive windows. */
    public static final int OVERLAP = 1 << 20;
    /** Size of one window (512 MiB + 1 MiB, under the 1 GiB limit we set ourselves). */
    public static final long WINDOW_SPAN = WINDOW_STRIDE + OVERLAP;
    private static final long STRIDE_MASK = WINDOW_STRIDE - 1;
    private static final Unsafe UNSAFE = Unsafes.unsafe();
    /** Where Buffer.address is in a buffer object (a direct buffer's first byte). */
    private static final long ADDRESS = fieldOffset(Buffer.class, "address");
    /** Where ByteBuffer.hb and .offset are (a heap buffer's array and its first byte, read-only ones included). */
    private static final long HB = fieldOffset(ByteBuffer.class, "hb");
    private static final long HB_OFFSET = fieldOffset(ByteBuffer.class, "offset");

    private final String name;
    private final ByteBuffer[] windows;
    /** For Unsafe: the array behind every window (one array for all), or null (direct or mapped windows). */
    private final Object ref;
    /** For Unsafe: per window, where its byte 0 is (an offset in {@link #ref}, or an address). */
    private final long[] addresses;
    private final long base;
    private final long size;
    private final ByteOrder order;
    /** The bytes are in the other order than the processor's: Unsafe's loads are reversed. */
    private final boolean swap;

    private ByteSource(String name, ByteBuffer[] windows, long base, long size, ByteOrder order) {
        this(name, windows, rawRef(windows), rawAddresses(windows), base, size, order);
    }

    private ByteSource(String name, ByteBuffer[] windows, Object ref, long[] addresses, long base, long size,
            ByteOrder order) {
        this.name = name;
        this.windows = windows;
        this.ref = ref;
        this.addresses = addresses;
        this.base = base;
        this.size = size;
        this.order = order;
        this.swap = order != ByteOrder.nativeOrder();
    }

    private static long fieldOffset(Class<?> c, String field) {
        try {
            return UNSAFE.objectFieldOffset(c.getDeclaredField(field));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no " + c.getName() + "." + field + " in this JDK", e);
        }
    }

    /** The array behind the windows (a heap buffer's, read-only ones included), or null for direct ones. */
    private static Object rawRef(ByteBuffer[] windows) {
        Object ref = windows[0].isDirect() ? null : UNSAFE.getObject(windows[0], HB);
        for (ByteBuffer w : windows) {
            if ((w.isDirect() ? null : UNSAFE.getObject(w, HB)) != ref) {
                throw new IllegalStateException("windows over different memory");
            }
        }
        return ref;
    }

    private static long[] rawAddresses(ByteBuffer[] windows) {
        long[] a = new long[windows.length];
        for (int i = 0; i < windows.length; i++) {
            ByteBuffer w = windows[i];
            a[i] = w.isDirect() ? UNSAFE.getLong(w, ADDRESS)
                    : Unsafe.ARRAY_BYTE_BASE_OFFSET + (long) UNSAFE.getInt(w, HB_OFFSET);
        }
        return a;
    }

    /** Maps a whole file read-only, little-endian. The mapping lives until garbage-collected. */
    public static ByteSource map(Path file) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long len = ch.size();
            int n = (int) Math.max(1, (len + WINDOW_STRIDE - 1) / WINDOW_STRIDE);
            ByteBuffer[] w = new ByteBuffer[n];
            for (int i = 0; i < n; i++) {
                long start = i * WINDOW_STRIDE;
                long span = Math.min(WINDOW_SPAN, len - start);
                w[i] = span <= 0 ? ByteBuffer.allocate(0)
                        : ch.map(FileChannel.MapMode.READ_ONLY, start, span).order(ByteOrder.LITTLE_ENDIAN);
            }
            return new ByteSource(file.toString(), w, 0, len, ByteOrder.LITTLE_ENDIAN);
        } catch (IOException | UnsupportedOperationException e) {
            throw new PerfDataException(file + ": cannot map: " + describe(e), e);
        }
    }

    /** Wraps {@code len} bytes of an array (shared, not copied), little-endian. */
    public static ByteSource wrap(String name, byte[] bytes, int off, int len) {
        checkRange(name, bytes.length, off, len);
        int n = (int) Math.max(1, (bytes.length + WINDOW_STRIDE - 1) / WINDOW_STRIDE);
        ByteBuffer[] w = new ByteBuffer[n];
        for (int i = 0; i < n; i++) {
            int start = (int) (i * WINDOW_STRIDE);
            int span = (int) Math.min(WINDOW_SPAN, bytes.length - start);
            w[i] = ByteBuffer.wrap(bytes, start, span).slice().order(ByteOrder.LITTLE_ENDIAN);
        }
        return new ByteSource(name, w, off, len, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Wraps the bytes {@code [0, limit)} of a buffer, heap or direct (shared, not copied; at most
     * {@value #WINDOW_SPAN} bytes), little-endian.
     */
    public static ByteSource wrap(String name, ByteBuffer buffer) {
        int len = buffer.limit();
        if (len > WINDOW_SPAN) {
            throw new IllegalArgumentException(name + ": " + len + " bytes are too many for one buffer");
        }
        return new ByteSource(name, new ByteBuffer[] {buffer.slice(0, len).order(ByteOrder.LITTLE_ENDIAN)}, 0, len,
                ByteOrder.LITTLE_ENDIAN);
    }

    public static ByteSource wrap(String name, byte[] bytes) {
        return wrap(name, bytes, 0, bytes.length);
    }

    /** What this source is (a file name, "stdin", ...), used in error messages. */
    public String name() {
        return name;
    }

    public long size() {
        return size;
    }

    public ByteOrder order() {
        return order;
    }

    /** The same bytes read in another byte order (for files written on the other endianness). */
    public ByteSource withOrder(ByteOrder o) {
        if (o == order) {
            return this;
        }
        ByteBuffer[] w = new ByteBuffer[windows.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = windows[i].duplicate().order(o);
        }
        return new ByteSource(name, w, ref, addresses, base, size, o);
    }

    /** The bytes {@code [off, off + len)} as a source of their own, offsets starting at 0. */
    public ByteSource slice(long off, long len) {
        checkLength(off, len);
        return new ByteSource(name, windows, ref, addresses, base + off, len, order);
    }

    public boolean contains(long off, long len) {
        return off >= 0 && len >= 0 && off <= size - len;
    }

    // Each read, and each method it calls, stays under C1's inlining limits (35 bytes of
    // bytecode, 90 % of that one level further in: 31, then 28).

    public int u8(long off) {
        check(off, 1);
        return UNSAFE.getByte(ref, locate(base + off)) & 0xff;
    }

    public int u16(long off) {
        check(off, 2);
        return get16(ref, locate(base + off), swap);
    }

    /** A u32 or s32 (the caller masks with {@code & 0xffffffffL} for u32 semantics). */
    public int s32(long off) {
        check(off, 4);
        return get32(ref, locate(base + off), swap);
    }

    public long u32(long off) {
        return s32(off) & 0xffffffffL;
    }

    public long u64(long off) {
        check(off, 8);
        return get64(ref, locate(base + off), swap);
    }

    /** Where byte {@code a} of the windows is for Unsafe: an offset in {@link #ref}, or an address. */
    private long locate(long a) {
        return addresses[(int) (a >>> STRIDE_SHIFT)] + (a & STRIDE_MASK);
    }

    private static int get16(Object ref, long at, boolean swap) {
        short v = UNSAFE.getShort(ref, at);
        return (swap ? Short.reverseBytes(v) : v) & 0xffff;
    }

    private static int get32(Object ref, long at, boolean swap) {
        int v = UNSAFE.getInt(ref, at);
        return swap ? Integer.reverseBytes(v) : v;
    }

    private static long get64(Object ref, long at, boolean swap) {
        long v = UNSAFE.getLong(ref, at);
        return swap ? Long.reverseBytes(v) : v;
    }

    /** {@code n} consecutive u64 values at {@code off} (one bounds check: callchains, register sets). */
    public long[] u64s(long off, int n) {
        long[] out = new long[n];
        // getLong per value, not a bulk copy through a slice and a LongBuffer view: those two
        // objects per call were an eighth of script's garbage
        u64s(off, out, 0, n);
        return out;
    }

    /** {@code n} consecutive u64 values at {@code off} into {@code dst[dstOff..dstOff+n)} (one bounds check, no allocation). */
    public void u64s(long off, long[] dst, int dstOff, int n) {
        checkLength(off, 8L * n);
        long a = base + off;
        ByteBuffer b = windows[(int) (a >>> STRIDE_SHIFT)];
        int i = (int) (a & STRIDE_MASK);
        if (i + 8L * n <= b.limit()) {
            long at = locate(a);
            for (int k = 0; k < n; k++) {
                dst[dstOff + k] = get64(ref, at + 8L * k, swap);
            }
        } else {
            for (int k = 0; k < n; k++) {
                dst[dstOff + k] = u64(off + 8L * k);
            }
        }
    }

    /** Copies {@code len} bytes at {@code off} into {@code dst[dstOff..]}. */
    public void get(long off, byte[] dst, int dstOff, int len) {
        checkLength(off, len);
        long a = base + off;
        int done = 0;
        while (done < len) {
            int w = (int) (a >>> STRIDE_SHIFT);
            int i = (int) (a & STRIDE_MASK);
            ByteBuffer b = windows[w];
            int n = Math.min(len - done, b.limit() - i);
            b.get(i, dst, dstOff + done, n);
            done += n;
            a += n;
        }
    }

    /**
     * These bytes as a read-only ByteBuffer in this source's byte order, position 0: a view when
     * they lie in one window, else a copy. For sections and bodies (at most 2 GiB).
     */
    public ByteBuffer toByteBuffer() {
        if (size > Integer.MAX_VALUE - 16) {
            throw new PerfDataException(name + ": " + size + " bytes at 0x" + Long.toHexString(base) + " are too many for one buffer");
        }
        int w = (int) (base >>> STRIDE_SHIFT);
        int i = (int) (base & STRIDE_MASK);
        ByteBuffer b = windows[w];
        if (i + size <= b.limit()) {
            return b.duplicate().position(i).limit((int) (i + size)).slice().asReadOnlyBuffer().order(order);
        }
        return ByteBuffer.wrap(bytes(0, (int) size)).asReadOnlyBuffer().order(order);
    }

    /** A copy of {@code len} bytes at {@code off}. */
    public byte[] bytes(long off, int len) {
        byte[] b = new byte[len];
        get(off, b, 0, len);
        return b;
    }

    /**
     * The NUL-terminated string starting at {@code off}, looking at no more than {@code maxLen}
     * bytes (clamped to the end of the source); unterminated means all {@code maxLen} bytes.
     */
    public String cString(long off, long maxLen) {
        long end = Math.min(size, off + Math.max(0, maxLen));
        check(off, 0);
        long p = off;
        while (p < end && u8(p) != 0) {
            p++;
        }
        int n = (int) (p - off);
        return n == 0 ? "" : new String(bytes(off, n), StandardCharsets.UTF_8);
    }

    /** Index of the first NUL in {@code [off, end)}, or {@code end} when there is none. */
    public long indexOfNul(long off, long end) {
        long e = Math.min(end, size);
        for (long p = off; p < e; p++) {
            if (u8(p) == 0) {
                return p;
            }
        }
        return e;
    }

    /**
     * Small enough for C1 to inline into every read (the message is built apart, only on
     * failure). {@code len} is not negative.
     */
    private void check(long off, long len) {
        if (off < 0 || off > size - len) {
            throw outside(off, len);
        }
    }

    /** {@link #check} for a length that may be negative. */
    private void checkLength(long off, long len) {
        if (len < 0) {
            throw outside(off, len);
        }
        check(off, len);
    }

    private PerfDataException outside(long off, long len) {
        return new PerfDataException(name + ": read of " + len + " bytes at offset 0x" + Long.toHexString(base + off)
                + " is outside the " + (base == 0 ? "file" : "section") + " (" + size + " bytes"
                + (base == 0 ? "" : " at 0x" + Long.toHexString(base)) + ")");
    }

    private static void checkRange(String name, int length, int off, int len) {
        if (off < 0 || len < 0 || off > length - len) {
            throw new PerfDataException(name + ": bad range " + off + "+" + len + " of " + length + " bytes");
        }
    }

    private static String describe(Exception e) {
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m;
    }

    @Override
    public String toString() {
        return name + "[" + size + " bytes" + (base == 0 ? "" : " at 0x" + Long.toHexString(base)) + ", " + order + "]";
    }
}
