package dev.jperf.report.annotate;

import dev.jperf.report.symbol.Demangler;
import dev.jperf.report.symbol.Dso;
import dev.jperf.report.symbol.SourceLines;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The lines {@code objdump -l} (and {@code -S}) writes before an instruction, as binutils 2.40's
 * objdump.c show_line makes them from bfd_find_nearest_line: the function's name when it changed
 * ({@code name():}, or the demangled name with its parameters and a colon), {@code file:line} (with
 * {@code (discriminator N)}) when the line or discriminator changed, and with {@code -S} the
 * source lines not yet shown up to that line (up to 5 before it, never again a line already shown
 * unless going back). One instance per objdump run (perf runs one per symbol): the state is objdump's.
 */
final class ObjdumpLines {
    /** objdump's SHOW_PRECEDING_CONTEXT_LINES. */
    private static final long CONTEXT = 5;

    private final SourceLines lines;
    private final Dso dso;
    private final boolean source;
    private final Map<String, SourceFile> files;
    private final Map<String, String[]> cache;
    private String prevFunction;
    private long prevLine = -1;
    private long prevDiscriminator;

    /** A source file as objdump keeps it (struct print_file_list). */
    private static final class SourceFile {
        String[] text;
        long maxPrinted;
        long lastLine;
    }

    /**
     * @param files source files read so far (shared between runs: a file is read once; each run's
     *        state about it is its own)
     */
    ObjdumpLines(SourceLines lines, Dso dso, boolean source, Map<String, String[]> files) {
        this.lines = lines;
        this.dso = dso;
        this.source = source;
        this.files = new HashMap<>();
        this.cache = files;
    }

    /** Appends to {@code out} the lines objdump writes before the instruction at DSO address {@code addr}. */
    void before(long addr, List<String> out) {
        SourceLines.NearestLine n = lines.nearestLine(dso, addr);
        if (n == null) {
            return;
        }
        String function = n.function() == null || n.function().isEmpty() ? null : n.function();
        String file = n.file() == null || n.file().isEmpty() ? null : n.file();
        long line = n.line();
        long disc = n.discriminator();
        boolean newFunction = function != null && (prevFunction == null || !function.equals(prevFunction));
        if (newFunction) {
            String d = Demangler.PERF_VERBOSE.demangle(function);
            out.add(d.equals(function) ? function + "():" : d + ":");
            prevLine = -1;
        }
        if (line > 0 && (line != prevLine || disc != prevDiscriminator)) {
            String f = file == null ? "???" : file;
            out.add(disc > 0 ? f + ":" + line + " (discriminator " + disc + ")" : f + ":" + line);
        }
        if (source && file != null && line > 0) {
            SourceFile p = files.get(file);
            if (p == null) {
                String[] text = read(file);
                if (text != null) {
                    p = new SourceFile();
                    p.text = text;
                    files.put(file, p);
                }
            }
            if (p != null && line != p.lastLine) {
                long l = line - CONTEXT;
                if (l >= line) {
                    l = 1;
                }
                if (p.maxPrinted >= l) {
                    l = p.maxPrinted < line ? p.maxPrinted + 1 : line;
                }
                for (long k = Math.max(l, 1); k <= line && k <= p.text.length; k++) {
                    out.add(p.text[(int) k - 1]);
                }
                if (p.maxPrinted < line) {
                    p.maxPrinted = line;
                }
                p.lastLine = line;
            }
        }
        if (newFunction) {
            prevFunction = function;
        }
        if (line > 0 && line != prevLine) {
            prevLine = line;
        }
        prevDiscriminator = disc;
    }

    /** The file's lines as objdump's slurp_file and dump_line see them; null when it cannot be read. */
    private String[] read(String file) {
        if (cache.containsKey(file)) {
            return cache.get(file);
        }
        String[] text = null;
        try {
            Path p = Path.of(file);
            if (Files.isRegularFile(p)) {
                String s = new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
                text = s.split("\n", -1);
                if (s.endsWith("\n")) {
                    text = java.util.Arrays.copyOf(text, text.length - 1);
                }
            }
        } catch (IOException | RuntimeException e) {
            text = null;
        }
        cache.put(file, text);
        return text;
    }
}
