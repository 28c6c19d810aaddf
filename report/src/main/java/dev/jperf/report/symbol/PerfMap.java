package dev.jperf.report.symbol;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A JIT's {@code /tmp/perf-PID.map}: one {@code START SIZE NAME} line (hex, optional 0x) per
 * function, absolute addresses. Malformed lines are skipped, as perf skips them.
 */
public final class PerfMap {
    private PerfMap() {
    }

    public static SymbolTable parse(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return SymbolTable.EMPTY;
        }
        List<Symbol> out = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                int a = line.indexOf(' ');
                int b = a < 0 ? -1 : line.indexOf(' ', a + 1);
                if (b < 0) {
                    continue;
                }
                try {
                    long start = parseHex(line.substring(0, a));
                    long size = parseHex(line.substring(a + 1, b));
                    out.add(new Symbol(start, start + size, line.substring(b + 1).strip(), Symbol.STT_FUNC, 1));
                } catch (NumberFormatException e) {
                    // not a map line
                }
            }
        }
        return SymbolTable.of(out);
    }

    private static long parseHex(String s) {
        String t = s.startsWith("0x") || s.startsWith("0X") ? s.substring(2) : s;
        return Long.parseUnsignedLong(t, 16);
    }
}
