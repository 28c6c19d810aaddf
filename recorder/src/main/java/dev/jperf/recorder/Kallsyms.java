package dev.jperf.recorder;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a recording needs of /proc/kallsyms at start: the kernel text range and the BPF
 * trampoline/dispatcher images. The kernel formats ~120k lines (5 MB here) on every read, so it is
 * read once, in 256 KiB chunks parsed as they come, on bytes, without a String per line and without
 * keeping the file: the build-id cache, which wants the whole text once per kernel, reads it again
 * ({@link #bytes}), as perf copies it when it caches the kernel.
 */
final class Kallsyms {
    /** A symbol of module {@code [bpf]}. */
    record Image(long addr, String name) {}

    private static final int CHUNK = 256 * 1024;

    private final Path path;
    private long text;
    private long etext;
    private final List<Image> images = new ArrayList<>();

    private Kallsyms(Path path) {
        this.path = path;
    }

    static Kallsyms read(Path path) throws IOException {
        Kallsyms k = new Kallsyms(path);
        byte[] buf = new byte[CHUNK];
        try (InputStream in = Files.newInputStream(path)) {
            int filled = 0;
            for (int n; (n = in.read(buf, filled, buf.length - filled)) >= 0; ) {
                filled += n;
                int done = k.parse(buf, filled, false);
                if (done == 0 && filled == buf.length) {
                    done = filled; // a line longer than the buffer is no symbol line: drop it
                }
                System.arraycopy(buf, done, buf, 0, filled - done);
                filled -= done;
            }
            k.parse(buf, filled, true);
        }
        return k;
    }

    /** Address of {@code _text}, 0 if hidden (kptr_restrict) or absent. */
    long text() {
        return text;
    }

    long etext() {
        return etext;
    }

    List<Image> images() {
        return images;
    }

    /** The whole file as it is now. */
    byte[] bytes() throws IOException {
        return Files.readAllBytes(path);
    }

    /**
     * Parses the whole lines among the first {@code n} bytes of {@code b} (also the last, unended
     * one when {@code atEnd}); returns how many bytes that was.
     */
    private int parse(byte[] b, int n, boolean atEnd) {
        int line = 0;
        while (line < n) {
            // "ffffffff81000000 T _text" or "ffffffffc0001000 t name\t[module]": the name starts at 19
            boolean symbol = line + 19 < n && b[line + 16] == ' ' && b[line + 18] == ' ';
            int end = symbol ? line + 19 : line;
            while (end < n && b[end] != '\n') {
                end++;
            }
            if (end >= n && !atEnd) {
                return line;
            }
            end = Math.min(end, n);
            int name = line + 19;
            if (symbol && end > name) {
                if (b[end - 1] == ']') {
                    image(b, line, name, end);
                } else if (is(b, name, end, "_text")) {
                    text = hex(b, line);
                } else if (is(b, name, end, "_etext")) {
                    etext = hex(b, line);
                }
            }
            line = end + 1;
        }
        return Math.min(line, n);
    }

    /** bpf_trampoline_<n> / bpf_dispatcher_<name> in module [bpf], as perf picks them. */
    private void image(byte[] b, int line, int name, int end) {
        if (!is(b, end - 6, end, "\t[bpf]")) {
            return;
        }
        String s = new String(b, name, end - 6 - name, StandardCharsets.ISO_8859_1);
        boolean trampoline = s.startsWith("bpf_trampoline_") && s.length() > 15
                && s.substring(15).chars().allMatch(Character::isDigit);
        if ((trampoline || s.startsWith("bpf_dispatcher_") && s.length() > 15) && hex(b, line) != 0) {
            images.add(new Image(hex(b, line), s));
        }
    }

    private static boolean is(byte[] b, int from, int end, String s) {
        return from >= 0 && end - from == s.length() && ProcFile.startsWith(b, from, end, s);
    }

    private static long hex(byte[] b, int from) {
        long v = 0;
        for (int i = from; i < from + 16; i++) {
            v = v << 4 | Character.digit(b[i], 16);
        }
        return v;
    }
}
