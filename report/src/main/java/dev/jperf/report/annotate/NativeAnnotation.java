package dev.jperf.report.annotate;

import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.elf.ElfProgramHeader;
import dev.jperf.format.elf.ElfSection;
import dev.jperf.format.header.EventDesc;
import dev.jperf.nativeshim.Capstone;
import dev.jperf.nativeshim.X86Disassembler;
import dev.jperf.report.session.Frame;
import dev.jperf.report.symbol.Dso;
import dev.jperf.report.symbol.Symbol;
import dev.jperf.report.symbol.SymbolResolver;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * perf annotate --stdio for functions of ELF user-space DSOs: samples per instruction offset of
 * each (event, DSO, symbol), then per symbol perf's header and the lines perf makes of
 * {@code objdump -l -d --no-show-raw-insn -S -C} over the symbol's range (symbol__disassemble,
 * annotation_line__print): the disassembly comes from {@link X86Disassembler}, laid out as
 * objdump's lines (tabs expanded as perf expands them), percent per instruction by
 * {@code --percent-type}. objdump's {@code -l}/{@code -S} lines (file:line, function and source)
 * are not made (README lists it).
 */
final class NativeAnnotation {
    /** perf's --percent-type: percent_type_str's names, in its order. */
    enum PercentType {
        GLOBAL_HITS("global hits"), GLOBAL_PERIOD("global period"), LOCAL_HITS("local hits"),
        LOCAL_PERIOD("local period");

        final String label;

        PercentType(String label) {
            this.label = label;
        }

        /** perf's annotate_parse_percent_type: "local-period", "period-local" and so on; null when not one. */
        static PercentType parse(String s) {
            String[] p = s.split("-");
            if (p.length != 2) {
                return null;
            }
            String scope = p[0].equals("local") || p[0].equals("global") ? p[0] : p[1];
            String what = scope.equals(p[0]) ? p[1] : p[0];
            if (!(scope.equals("local") || scope.equals("global")) || !(what.equals("hits") || what.equals("period"))) {
                return null;
            }
            return valueOf((scope + "_" + what).toUpperCase(Locale.ROOT));
        }
    }

    /** One (event, DSO, symbol)'s samples by offset in the symbol. */
    static final class Entry {
        final EventDesc event;
        final Dso dso;
        final Symbol symbol;
        /** Not asked for (-s, -d): not counted. */
        final boolean skipped;
        final TreeMap<Long, long[]> byOffset = new TreeMap<>();
        long samples;
        long period;

        Entry(EventDesc event, Dso dso, Symbol symbol, boolean skipped) {
            this.event = event;
            this.dso = dso;
            this.symbol = symbol;
            this.skipped = skipped;
        }

        void add(long offset, long p) {
            long[] c = byOffset.get(offset);
            if (c == null) {
                c = new long[2];
                byOffset.put(offset, c);
            }
            c[0]++;
            c[1] += p;
            samples++;
            period += p;
        }
    }

    /** Per event (by identity), its entries by symbol (a Symbol belongs to one DSO) and its totals. */
    private static final class PerEvent {
        final IdentityHashMap<Symbol, Entry> bySymbol = new IdentityHashMap<>();
        long samples;
        long period;
    }

    /** Where objdump finds detached debug files (binutils' default debug directory). */
    private static final Path DEBUG_DIR = Path.of("/usr/lib/debug");

    private final String symbol;
    private final Set<String> dsos;
    private final IdentityHashMap<EventDesc, PerEvent> events = new IdentityHashMap<>();
    private final List<Entry> entries = new ArrayList<>();
    /** How to print (set by print) and objdump's source files read so far. */
    private Annotate.Display display = Annotate.Display.DEFAULT;
    private dev.jperf.report.symbol.SourceLines sourceLines;
    private final Map<String, String[]> sources = new HashMap<>();
    /** The srcline perf's -l printed last (a static of perf's: it holds across functions). */
    private String prevPath;
    /** The kernel DSOs said to be beyond annotation (perf's dso->annotate_warned). */
    private final Set<Dso> kernelWarned = new java.util.HashSet<>();
    /** Whether --percent-limit left a function out. */
    private boolean limited;
    // the last sample's: consecutive samples mostly share event and symbol
    private EventDesc lastEvent;
    private PerEvent lastPerEvent;
    private Entry lastEntry;
    private Symbol lastNamed;
    private boolean lastNamedMatches;

    /**
     * @param symbol only this symbol is counted (null: all)
     * @param dsos only symbols of these DSOs, by short or long name (null: all)
     */
    NativeAnnotation(String symbol, Set<String> dsos) {
        this.symbol = symbol;
        this.dsos = dsos;
    }

    /** Counts a sample (every sample, or with a symbol every one of it: the global percentages' totals) of event {@code ev} at {@code f}. */
    void add(EventDesc ev, long p, Frame f) {
        PerEvent pe = lastPerEvent;
        if (ev != lastEvent) {
            pe = events.get(ev);
            if (pe == null) {
                pe = new PerEvent();
                events.put(ev, pe);
            }
            lastEvent = ev;
            lastPerEvent = pe;
            lastEntry = null;
        }
        // perf annotate SYMBOL drops every other sample before its hists count them: the
        // global percentages are then of that symbol's samples alone
        if (symbol == null || f != null && f.symbol() != null && named(f.symbol())) {
            pe.samples++;
            pe.period += p;
        }
        if (f == null || f.symbol() == null || f.dso() == null) {
            return;
        }
        boolean kernel = f.dso().kind() == Dso.Kind.KERNEL && !Annotate.bpf(f);
        if (!kernel && (f.dso().kind() != Dso.Kind.USER || f.kernelSpace())) {
            return;
        }
        Symbol sym = f.symbol();
        Entry e = lastEntry;
        if (e == null || e.symbol != sym) {
            e = pe.bySymbol.get(sym);
            if (e == null) {
                Dso dso = f.dso();
                boolean skip = symbol != null && !symbol.equals(sym.name())
                        || dsos != null && !dsos.contains(dso.shortName()) && !dsos.contains(dso.longName());
                e = new Entry(ev, dso, sym, skip);
                pe.bySymbol.put(sym, e);
                if (!skip) {
                    entries.add(e);
                }
            }
            lastEntry = e;
        }
        if (!e.skipped) {
            e.add(f.addr() - sym.start(), p);
        }
    }

    /** Whether {@code s} is the symbol asked for (the last answer kept: consecutive samples mostly share it). */
    private boolean named(Symbol s) {
        if (s != lastNamed) {
            lastNamed = s;
            lastNamedMatches = symbol.equals(s.name());
        }
        return lastNamedMatches;
    }

    /**
     * The entries, hottest first (perf's hists order: period, then samples; on a tie its sort
     * keys: the DSO's short name ascending, then the symbol's start descending).
     */
    List<Entry> entries() {
        List<Entry> l = new ArrayList<>(entries);
        l.sort((a, b) -> {
            if (a.period != b.period) {
                return Long.compare(b.period, a.period);
            }
            if (a.samples != b.samples) {
                return Long.compare(b.samples, a.samples);
            }
            int c = a.dso.shortName().compareTo(b.dso.shortName());
            return c != 0 ? c : Long.compareUnsigned(b.symbol.start(), a.symbol.start());
        });
        return l;
    }

    /**
     * Prints the selected entries as perf annotate --stdio does; a symbol whose file cannot be
     * disassembled is said on {@code err} in one line, as perf does, and skipped.
     *
     * @return whether anything was printed
     */
    boolean print(PrintStream out, PrintStream err, SymbolResolver resolver, PercentType type, boolean asmRaw,
            Annotate.Display display) {
        this.display = display;
        this.sourceLines = resolver.sourceLines();
        boolean any = false;
        boolean checked = false;
        Map<Path, ElfFile> elfs = new HashMap<>();
        Map<Path, ObjdumpSymbols> names = new HashMap<>();
        for (Entry e : entries()) {
                PerEvent total = events.get(e.event);
                if (display.percentLimit() > 0 && total.period > 0
                        && 100.0 * e.period / total.period < display.percentLimit()) {
                    limited = true;
                    continue;
                }
                if (e.dso.kind() == Dso.Kind.KERNEL) {
                    // perf needs a vmlinux of the recorded build-id (or /proc/kcore): it says so once per DSO
                    if (kernelWarned.add(e.dso)) {
                        String bid = e.dso.buildIdHex();
                        err.println("jperf annotate: cannot annotate " + e.symbol.name() + ": no vmlinux"
                                + (bid == null ? "" : " with build id " + bid) + " (perf: No vmlinux file was found in the path)");
                    }
                    continue;
                }
                Path file = resolver.disassemblyFile(e.dso);
                if (file == null) {
                    err.println("jperf annotate: " + e.dso.longName() + ": cannot find the file to disassemble "
                            + e.symbol.name() + " (perf: objdump found nothing)");
                    continue;
                }
                if (!checked) {
                    String why = Capstone.unavailable();
                    if (why != null) {
                        throw new IllegalStateException(why);
                    }
                    checked = true;
                }
                ElfFile elf;
                ObjdumpSymbols syms;
                try {
                    elf = elfs.get(file);
                    if (elf == null) {
                        elf = ElfFile.open(file);
                        elfs.put(file, elf);
                    }
                    // objdump -S reads the symbols of the detached debug file too (a binary
                    // without .symtab is named by its .symtab); without -S only the binary's
                    syms = names.get(file);
                    if (syms == null) {
                        syms = ObjdumpSymbols.of(elf, display.source() ? DEBUG_DIR : null);
                        names.put(file, syms);
                    }
                } catch (IOException | RuntimeException ex) {
                    err.println("jperf annotate: " + file + ": " + ex.getMessage());
                    continue;
                }
                if (print(out, e, elf, syms, type, asmRaw)) {
                    any = true;
                }
        }
        return any;
    }

    /** Whether print left a function out for --percent-limit or a kernel function out (perf then prints nothing of it). */
    boolean limited() {
        return limited || !kernelWarned.isEmpty();
    }

    /** One line of objdump's output as perf keeps it: an instruction (offset >= 0) or other text. */
    private record Line(long offset, String text, long lineNr) {
    }

    /** perf's file_lineno: objdump -l's line for an absolute path. */
    private static final java.util.regex.Pattern FILE_LINENO = java.util.regex.Pattern.compile("^/[^:]+:([0-9]+)");

    /** C's atoi of digits (wrapping as an int). */
    private static long atoi(String digits) {
        int v = 0;
        for (int i = 0; i < digits.length(); i++) {
            v = v * 10 + (digits.charAt(i) - '0');
        }
        return v;
    }

    /** perf's strim: C's isspace characters off both ends. */
    private static String strim(String s) {
        int a = 0;
        int b = s.length();
        while (a < b && isspace(s.charAt(a))) {
            a++;
        }
        while (b > a && isspace(s.charAt(b - 1))) {
            b--;
        }
        return s.substring(a, b);
    }

    private static boolean isspace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\u000b' || c == '\f' || c == '\r';
    }

    private boolean print(PrintStream out, Entry e, ElfFile elf, ObjdumpSymbols syms, PercentType type,
            boolean asmRaw) {
        long start = toVaddr(elf, e.symbol.start());
        long end = start + (e.symbol.end() - e.symbol.start());
        ElfSection sec = null;
        for (ElfSection s : elf.sections()) {
            if (s.isAlloc() && s.type() != ElfSection.SHT_NOBITS && Long.compareUnsigned(start - s.addr(), s.size()) < 0) {
                sec = s;
                break;
            }
        }
        if (sec == null) {
            return false;
        }
        byte[] bytes;
        try {
            bytes = elf.sectionBytes(sec);
        } catch (RuntimeException | IOException ex) {
            return false;
        }
        int from = (int) (start - sec.addr());
        int to = (int) Math.min(bytes.length, end - sec.addr());
        // objdump's output, its "FILE:     file format" line left out as perf leaves it out
        List<String> raw = new ArrayList<>();
        List<Long> rawOffset = new ArrayList<>();
        String[] head = {"", "", "", "Disassembly of section " + sec.name() + ":", "",
            String.format(Locale.ROOT, "%016x %s:", start, header(syms, start, e.symbol.name()))};
        for (String h : head) {
            raw.add(h);
            rawOffset.add(-1L);
        }
        ObjdumpLines objdump = sourceLines == null ? null : new ObjdumpLines(sourceLines, e.dso, display.source(), sources);
        List<String> before = new ArrayList<>();
        try (X86Disassembler d = new X86Disassembler(syms)) {
            d.decode(bytes, from, to, start, (addr, size, text) -> {
                if (objdump != null) {
                    before.clear();
                    objdump.before(e.symbol.start() + (addr - start), before);
                    for (String b : before) {
                        raw.add(b);
                        rawOffset.add(-1L);
                    }
                }
                String hex = Long.toHexString(addr);
                if (!asmRaw) {
                    raw.add(expand(hex + ":\t" + text).substring(hex.length() + 1));
                    rawOffset.add(addr - start);
                    return;
                }
                int at = from + (int) (addr - start);
                for (int k = 0; k < size; k += 7) {
                    StringBuilder b = new StringBuilder();
                    String h = Long.toHexString(addr + k);
                    b.append(h).append(":\t");
                    int n = Math.min(7, size - k);
                    for (int j = 0; j < n; j++) {
                        b.append(String.format(Locale.ROOT, "%02x ", bytes[at + k + j] & 0xff));
                    }
                    if (k == 0) {
                        for (int j = n; j < 7; j++) {
                            b.append("   ");
                        }
                        b.append('\t').append(text);
                    }
                    raw.add(expand(b.toString()).substring(h.length() + 1).stripTrailing());
                    rawOffset.add(addr + k - start);
                }
            });
        }
        // perf's symbol__parse_objdump_line: an absolute "/file:N" line is not kept but sets the
        // line number of the lines after it; every kept line takes the number and increments it
        List<Line> lines = new ArrayList<>();
        long lineNr = 0;
        for (int i = 0; i < raw.size(); i++) {
            if (rawOffset.get(i) >= 0) {
                lines.add(new Line(rawOffset.get(i), raw.get(i), lineNr++));
                continue;
            }
            String t = expand(strim(raw.get(i)));
            java.util.regex.Matcher m = FILE_LINENO.matcher(t);
            if (m.find()) {
                lineNr = atoi(m.group(1));
                continue;
            }
            lines.add(new Line(-1, t, lineNr++));
        }
        long last = -1;
        for (Line l : lines) {
            if (l.offset >= 0) {
                last = l.offset;
            }
        }
        int width = Long.toHexString(start + Math.max(last, 0)).length();
        // each line's share: the samples from its address up to the next line's
        PerEvent total = events.get(e.event);
        int n = lines.size();
        long[] hitsOf = new long[n];
        long[] periodOf = new long[n];
        double[] pctOf = new double[n];
        String[] pathOf = new String[n];
        for (int i = 0; i < n; i++) {
            Line l = lines.get(i);
            if (l.offset < 0) {
                continue;
            }
            long next = end - start;
            for (int k = i + 1; k < n; k++) {
                if (lines.get(k).offset >= 0) {
                    next = lines.get(k).offset;
                    break;
                }
            }
            long hits = 0;
            long period = 0;
            for (long[] c : e.byOffset.subMap(l.offset, next).values()) {
                hits += c[0];
                period += c[1];
            }
            hitsOf[i] = hits;
            periodOf[i] = period;
            pctOf[i] = switch (type) {
                case LOCAL_PERIOD -> e.period == 0 ? 0 : 100.0 * period / e.period;
                case LOCAL_HITS -> e.samples == 0 ? 0 : 100.0 * hits / e.samples;
                case GLOBAL_PERIOD -> total.period == 0 ? 0 : 100.0 * period / total.period;
                // perf 6.1's annotate never counts its hists' nr_samples, and a zero total gives 0.00
                case GLOBAL_HITS -> 0;
            };
        }
        if (display.printLine()) {
            summary(out, e, lines, pctOf, pathOf);
        }
        String column = display.showTotalPeriod() ? "Period      " : display.showNrSamples() ? "Samples " : "Percent ";
        String blank = display.showTotalPeriod() ? "             :" : "         :";
        String header = " " + column + "|\tSource code & Disassembly of "
                + (display.fullPaths() ? e.dso.longName() : e.dso.shortName()) + " for " + e.event.name() + " ("
                + e.samples + " samples, percent: " + type.label + ")";
        out.println(header);
        out.println("-".repeat(header.length() + 5));
        StringBuilder sb = new StringBuilder(128);
        for (int i = 0; i < n; i++) {
            Line l = lines.get(i);
            if (l.offset < 0) {
                out.println(l.text.isEmpty() ? blank : String.format(Locale.ROOT, "%s %-" + width + "d %s", blank, l.lineNr, l.text));
                continue;
            }
            sb.setLength(0);
            if (display.showTotalPeriod()) {
                sb.append(String.format(Locale.ROOT, " %11d : ", periodOf[i]));
            } else if (display.showNrSamples()) {
                sb.append(String.format(Locale.ROOT, " %7d : ", hitsOf[i]));
            } else {
                sb.append(String.format(Locale.ROOT, " %7.2f : ", pctOf[i]));
            }
            sb.append(String.format(Locale.ROOT, "  %" + width + "x:", start + l.offset));
            sb.append(l.text);
            // perf's annotation_line__print: a line's srcline unless the last one it printed was the same
            if (pathOf[i] != null && !pathOf[i].equals(prevPath)) {
                sb.append(" // ").append(pathOf[i]);
                prevPath = pathOf[i];
            }
            out.println(sb);
        }
        return true;
    }

    /**
     * perf's -l (symbol__calc_lines, print_summary): the srcline of every line above 0.5 percent
     * (get_srcline without symbol, the file's base name), their percents summed per srcline,
     * highest first (ties: srcline descending), under "Sorted summary for file DSO".
     */
    private void summary(PrintStream out, Entry e, List<Line> lines, double[] pctOf, String[] pathOf) {
        TreeMap<String, double[]> byPath = new TreeMap<>(java.util.Comparator.reverseOrder());
        for (int i = 0; i < lines.size(); i++) {
            Line l = lines.get(i);
            if (l.offset < 0 || pctOf[i] <= 0.5) {
                continue;
            }
            long addr = e.symbol.start() + l.offset;
            pathOf[i] = sourceLines.srcline(e.dso, addr, null, false, true, addr, display.fullPaths());
            byPath.computeIfAbsent(pathOf[i], k -> new double[1])[0] += pctOf[i];
        }
        out.println();
        out.println("Sorted summary for file " + e.dso.longName());
        out.println("----------------------------------------------");
        out.println();
        if (byPath.isEmpty()) {
            out.println(" Nothing higher than 0.5%");
            return;
        }
        List<Map.Entry<String, double[]>> sorted = new ArrayList<>(byPath.entrySet());
        sorted.sort((a, b) -> Double.compare(b.getValue()[0], a.getValue()[0]));
        for (Map.Entry<String, double[]> p : sorted) {
            out.println(String.format(Locale.ROOT, " %7.2f %s", p.getValue()[0], p.getKey()));
        }
    }

    /** objdump's name of the symbol it starts the disassembly at ("<name>"), perf's name when it has none. */
    private static String header(ObjdumpSymbols syms, long start, String fallback) {
        String n = syms.name(start);
        return n != null ? n : "<" + fallback + ">";
    }

    /** A file offset (perf's symbol address) as the address objdump shows (map__rip_2objdump). */
    private static long toVaddr(ElfFile elf, long fileOffset) {
        for (ElfProgramHeader p : elf.programHeaders()) {
            if (p.type() == ElfProgramHeader.PT_LOAD && fileOffset >= p.offset() && fileOffset < p.offset() + p.filesz()) {
                return fileOffset - p.offset() + p.vaddr();
            }
        }
        return fileOffset;
    }

    /** Tabs expanded to 8 columns, as perf expands objdump's lines. */
    private static String expand(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\t') {
                do {
                    b.append(' ');
                } while (b.length() % 8 != 0);
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
