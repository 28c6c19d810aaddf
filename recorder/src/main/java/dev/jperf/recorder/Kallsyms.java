package dev.jperf.recorder;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * /proc/kallsyms, read once (the kernel formats ~120k lines on every read, which is slow): the
 * kernel text range, the BPF trampoline/dispatcher images, and the raw bytes for the build-id
 * cache. Parsed on bytes, without a String per line.
 */
final class Kallsyms {
    /** A symbol of module {@code [bpf]}. */
    record Image(long addr, String name) {}

    private final byte[] bytes;
    private long text;
    private long etext;
    private final List<Image> images = new ArrayList<>();

    private Kallsyms(byte[] bytes) {
        this.bytes = bytes;
        parse();
    }

    static Kallsyms read(Path path) throws IOException {
        try (InputStream in = Files.newInputStream(path)) {
            return new Kallsyms(in.readAllBytes());
        }
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

    byte[] bytes() {
        return bytes;
    }

    private void parse() {
        int n = bytes.length;
        int line = 0;
        while (line < n) {
            int end = line;
            while (end < n && bytes[end] != '\n') {
                end++;
            }
            // "ffffffff81000000 T _text" or "ffffffffc0001000 t name\t[module]"
            int name = line + 19;
            if (end - line > 19 && bytes[line + 16] == ' ' && bytes[line + 18] == ' ') {
                if (bytes[end - 1] == ']') {
                    image(line, name, end);
                } else if (is(name, end, "_text")) {
                    text = hex(line);
                } else if (is(name, end, "_etext")) {
                    etext = hex(line);
                }
            }
            line = end + 1;
        }
    }

    /** bpf_trampoline_<n> / bpf_dispatcher_<name> in module [bpf], as perf picks them. */
    private void image(int line, int name, int end) {
        if (!endsWith(end, "\t[bpf]")) {
            return;
        }
        String s = new String(bytes, name, end - 6 - name, StandardCharsets.ISO_8859_1);
        boolean trampoline = s.startsWith("bpf_trampoline_") && s.length() > 15
                && s.substring(15).chars().allMatch(Character::isDigit);
        if ((trampoline || s.startsWith("bpf_dispatcher_") && s.length() > 15) && hex(line) != 0) {
            images.add(new Image(hex(line), s));
        }
    }

    private boolean is(int from, int end, String s) {
        if (end - from != s.length()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (bytes[from + i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private boolean endsWith(int end, String s) {
        return end - s.length() >= 0 && is(end - s.length(), end, s);
    }

    private long hex(int from) {
        long v = 0;
        for (int i = from; i < from + 16; i++) {
            v = v << 4 | Character.digit(bytes[i], 16);
        }
        return v;
    }
}
