package dev.jperf.bpf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** bpftool's get_fdinfo: the value of the first line of /proc/self/fdinfo/FD containing {@code key}. */
final class FdInfo {
    private final String text;

    private FdInfo(String text) {
        this.text = text;
    }

    static FdInfo of(int fd) {
        try {
            return new FdInfo(Files.readString(Path.of("/proc/self/fdinfo/" + fd), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new FdInfo(""); // bpftool then prints the fields without these values
        }
    }

    /** The text after the tab, or null when no line contains {@code key} (substring match, as strstr). */
    String get(String key) {
        for (String line : text.split("\n")) {
            if (line.contains(key)) {
                int tab = line.indexOf('\t');
                return tab < 0 || tab + 1 >= line.length() ? null : line.substring(tab + 1);
            }
        }
        return null;
    }

    /** atoll/atoi of {@link #get}: leading digits (and sign), 0 when there are none. */
    static long atol(String s) {
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        boolean neg = false;
        if (i < s.length() && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
            neg = s.charAt(i) == '-';
            i++;
        }
        long v = 0;
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            v = v * 10 + (s.charAt(i++) - '0');
        }
        return neg ? -v : v;
    }
}
