package dev.jperf.report.script;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A byte buffer for text output with the printf conversions perf script uses ({@code %5d},
 * {@code %-5d}, {@code %16lx}, {@code %12s}, ...) done by hand: no String.format, no per-line
 * objects. Strings are written as UTF-8 (an ASCII fast path; the rest through the charset).
 */
final class LineWriter {
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private final OutputStream out;
    private byte[] buf = new byte[1 << 16];
    private int n;
    private long flushes;

    LineWriter(OutputStream out) {
        this.out = out;
    }

    private void ensure(int more) {
        if (n + more > buf.length) {
            flushBuffer();
            if (more > buf.length) {
                buf = new byte[Math.max(more, buf.length * 2)];
            }
        }
    }

    private void flushBuffer() {
        flushes++;
        try {
            out.write(buf, 0, n);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        n = 0;
    }

    /** Writes the buffer and flushes the stream. */
    void flush() {
        flushBuffer();
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A position to copy from with {@link #since}. */
    long mark() {
        return (flushes << 32) | n;
    }

    /** The bytes written since {@code mark}, or null when the buffer was flushed in between. */
    byte[] since(long mark) {
        if ((mark >>> 32) != flushes) {
            return null;
        }
        return java.util.Arrays.copyOfRange(buf, (int) mark, n);
    }

    LineWriter ch(char c) {
        ensure(1);
        buf[n++] = (byte) c;
        return this;
    }

    LineWriter spaces(int count) {
        ensure(Math.max(count, 0));
        for (int i = 0; i < count; i++) {
            buf[n++] = ' ';
        }
        return this;
    }

    LineWriter bytes(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, n, b.length);
        n += b.length;
        return this;
    }

    /** The UTF-8 length of {@code s}: printf pads by bytes. */
    static int utf8Length(String s) {
        int len = s.length();
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return s.getBytes(StandardCharsets.UTF_8).length;
            }
        }
        return len;
    }

    LineWriter str(String s) {
        int len = s.length();
        ensure(len);
        for (int i = 0; i < len; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                // what was copied so far is overwritten: n has not moved
                return bytes(s.getBytes(StandardCharsets.UTF_8));
            }
            buf[n + i] = (byte) c;
        }
        n += len;
        return this;
    }

    /** printf("%*s", width, s). */
    LineWriter strRight(String s, int width) {
        spaces(width - utf8Length(s));
        return str(s);
    }

    private static final long[] POW10 = new long[19];
    // "00".."99": two digits per division
    private static final byte[] PAIRS = new byte[200];

    static {
        long p = 1;
        for (int i = 0; i < POW10.length; i++) {
            POW10[i] = p;
            p *= 10;
        }
        for (int i = 0; i < 100; i++) {
            PAIRS[2 * i] = (byte) ('0' + i / 10);
            PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
        }
    }

    /** Number of decimal digits of v >= 0. */
    private static int digits(long v) {
        int d = 1;
        while (d < POW10.length && v >= POW10[d]) {
            d++;
        }
        return d;
    }

    /** Decimal digits of v >= 0 into the next d bytes. */
    private void putDec(long v, int d) {
        int i = n + d;
        while (v >= Integer.MAX_VALUE) {
            buf[--i] = (byte) ('0' + (v % 10));
            v /= 10;
        }
        int x = (int) v;
        while (x >= 100) {
            int q = x / 100;
            int r = (x - q * 100) << 1;
            buf[--i] = PAIRS[r + 1];
            buf[--i] = PAIRS[r];
            x = q;
        }
        if (x >= 10) {
            buf[--i] = PAIRS[(x << 1) + 1];
            buf[--i] = PAIRS[x << 1];
        } else {
            buf[--i] = (byte) ('0' + x);
        }
        n += d;
    }

    /** printf("%*ld", width, v). */
    LineWriter decRight(long v, int width) {
        boolean neg = v < 0;
        long a = neg ? -v : v;
        if (a < 0) {
            return strRight(Long.toString(v), width);
        }
        int d = digits(a) + (neg ? 1 : 0);
        ensure(Math.max(d, width));
        spaces(width - d);
        if (neg) {
            buf[n++] = '-';
            d--;
        }
        putDec(a, d);
        return this;
    }

    /** printf("%-*ld", width, v). */
    LineWriter decLeft(long v, int width) {
        int d = v < 0 ? Long.toString(v).length() : digits(v);
        decRight(v, 0);
        return spaces(width - d);
    }

    /** printf("%0*ld", width, v). */
    LineWriter decZero(long v, int width) {
        if (v < 0) {
            ch('-');
            return v == Long.MIN_VALUE ? str(Long.toString(v).substring(1)) : decZero(-v, width - 1);
        }
        int d = digits(v);
        ensure(Math.max(d, width));
        for (int i = d; i < width; i++) {
            buf[n++] = '0';
        }
        putDec(v, d);
        return this;
    }

    /** printf("%lu", v) of an unsigned 64-bit value. */
    LineWriter udec(long v) {
        if (v >= 0) {
            return decRight(v, 0);
        }
        return str(Long.toUnsignedString(v));
    }

    /** printf("%*lx", width, v) (unsigned). */
    LineWriter hexRight(long v, int width) {
        int d = v == 0 ? 1 : (64 - Long.numberOfLeadingZeros(v) + 3) / 4;
        ensure(Math.max(d, width));
        spaces(width - d);
        for (int i = d - 1; i >= 0; i--) {
            buf[n++] = HEX[(int) (v >>> (4 * i)) & 0xf];
        }
        return this;
    }

    /** printf("%#lx", v): 0x prefix except for 0. */
    LineWriter hexAlt(long v) {
        if (v == 0) {
            return ch('0');
        }
        ch('0').ch('x');
        return hexRight(v, 0);
    }

    /** printf("%02x", v). */
    LineWriter hex2(int v) {
        if (v < 0x10) {
            ch('0');
        }
        return hexRight(v & 0xffffffffL, 0);
    }
}
