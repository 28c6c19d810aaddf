package dev.jperf.format.io;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The one reader of small /proc and /sys files for every module. Reads to end of file with
 * read(2) until it returns 0: Files.readString trusts procfs's size of 0 and a sized read, and
 * gets only the first byte of an integer sysctl on some kernels (6.18's proc_dointvec answers it
 * short). No lambdas: the recorder's start reads ~100 of these.
 */
public final class ProcFs {
    private ProcFs() {
    }

    /**
     * A small /proc or /sys file as text without white space at either end: one open and read,
     * bytes as ISO-8859-1. The header features read ~100 of them at start; through
     * {@code Files.readString} each took a file channel and a charset decoder, interpreted.
     */
    public static String readText(Path path) throws IOException {
        try (FileInputStream in = new FileInputStream(path.toString())) {
            byte[] b = in.readAllBytes();
            return text(b, 0, b.length);
        }
    }

    /** The text between {@code from} and {@code end}, without white space at either end (String.strip's). */
    public static String text(byte[] b, int from, int end) {
        while (from < end && blank(b[from])) {
            from++;
        }
        while (end > from && blank(b[end - 1])) {
            end--;
        }
        return new String(b, from, end - from, StandardCharsets.ISO_8859_1);
    }

    /**
     * An integer sysctl (/proc/sys/...) as a number.
     *
     * @throws IOException when it cannot be read or holds no integer
     */
    public static int sysctlInt(Path path) throws IOException {
        String t = readText(path);
        try {
            return Integer.parseInt(t);
        } catch (NumberFormatException e) {
            throw new IOException(path + " holds no integer: \"" + t + "\"");
        }
    }

    /** Character.isWhitespace of an ISO-8859-1 byte. */
    public static boolean blank(byte c) {
        return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
    }
}
