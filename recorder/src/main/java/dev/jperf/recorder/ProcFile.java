package dev.jperf.recorder;

import dev.jperf.format.io.ProcFs;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A /proc file read whole into one buffer that is reused from file to file: a recording's start
 * reads a status file per thread and a maps file per process, and reading them as lines of text
 * allocated and decoded tens of kilobytes each, all of it interpreted code at that point.
 * Bytes are ISO-8859-1 to the parsers; small files as text through format's {@link ProcFs}.
 */
final class ProcFile {
    /** Larger than any maps file the buffer would otherwise have to grow for repeatedly. */
    private static final int MAX = 64 << 20;
    private byte[] buf = new byte[16 << 10];

    /** Reads {@code path} into {@link #bytes()}; returns its length. */
    int read(Path path) throws IOException {
        try (FileInputStream in = new FileInputStream(path.toString())) {
            int n = 0;
            for (int r; (r = in.read(buf, n, buf.length - n)) > 0; ) {
                n += r;
                if (n == buf.length) {
                    if (buf.length >= MAX) {
                        throw new IOException(path + " is larger than " + MAX + " bytes");
                    }
                    buf = Arrays.copyOf(buf, buf.length * 2);
                }
            }
            return n;
        }
    }

    byte[] bytes() {
        return buf;
    }

    /** Index of the '\n' ending the line at {@code from}, or {@code n}. */
    static int lineEnd(byte[] b, int from, int n) {
        int i = from;
        while (i < n && b[i] != '\n') {
            i++;
        }
        return i;
    }

    static boolean startsWith(byte[] b, int from, int end, String prefix) {
        if (end - from < prefix.length()) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (b[from + i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The unsigned hexadecimal number (1 to 16 digits, no prefix) in bytes {@code from} to
     * {@code to} of {@code b}, as {@code Long.parseUnsignedLong(s, 16)} reads it.
     *
     * @throws NumberFormatException if it is not one
     */
    static long hex(byte[] b, int from, int to) {
        if (from >= to || to - from > 16) {
            throw new NumberFormatException("not a 64-bit hexadecimal number");
        }
        long v = 0;
        for (int i = from; i < to; i++) {
            int d = Character.digit(b[i], 16);
            if (d < 0) {
                throw new NumberFormatException("not a hexadecimal digit");
            }
            v = v << 4 | d;
        }
        return v;
    }
}
