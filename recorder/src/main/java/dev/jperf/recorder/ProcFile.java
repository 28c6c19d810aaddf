package dev.jperf.recorder;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A /proc file read whole into one buffer that is reused from file to file: a recording's start
 * reads a status file per thread and a maps file per process, and reading them as lines of text
 * allocated and decoded tens of kilobytes each, all of it interpreted code at that point.
 * Bytes are ISO-8859-1 to the parsers, as before.
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
     * A small /proc or /sys file as text without white space at either end: one open and read,
     * bytes as ISO-8859-1. The header features read ~100 of them at start; through
     * {@code Files.readString} each took a file channel and a charset decoder, interpreted.
     */
    static String readText(Path path) throws IOException {
        try (FileInputStream in = new FileInputStream(path.toString())) {
            byte[] b = in.readAllBytes();
            return text(b, 0, b.length);
        }
    }

    /** The text between {@code from} and {@code end}, without white space at either end (String.strip's). */
    static String text(byte[] b, int from, int end) {
        while (from < end && blank(b[from])) {
            from++;
        }
        while (end > from && blank(b[end - 1])) {
            end--;
        }
        return new String(b, from, end - from, StandardCharsets.ISO_8859_1);
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

    /** Character.isWhitespace of an ISO-8859-1 byte. */
    static boolean blank(byte c) {
        return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
    }
}
