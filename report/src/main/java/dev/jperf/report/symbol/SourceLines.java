package dev.jperf.report.symbol;

import dev.jperf.format.dwarf.Addr2Line;
import dev.jperf.format.dwarf.DebugSections;
import dev.jperf.format.elf.ElfDebugLink;
import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.elf.ElfProgramHeader;
import dev.jperf.format.elf.ElfSection;
import dev.jperf.format.elf.ElfSymbol;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Source lines of native code, as perf 6.1 finds them: perf runs binutils' {@code addr2line -i -f
 * -e FILE} on the file its symbols came from (the DSO's symsrc: the first image with a
 * {@code .symtab} in {@link SymbolResolver}'s order, else the DSO itself), and addr2line reads the
 * DWARF of that file, else of its separate debug file ({@code /usr/lib/debug/.build-id/xx/rest.debug},
 * then the {@code .gnu_debuglink} target in the file's directory, its {@code .debug/} and
 * {@code /usr/lib/debug/DIR}). Here format's {@link Addr2Line} reads the same DWARF, each file once
 * (line tables indexed, a unit's functions read when first needed), and answers are cached per DSO and address.
 *
 * <p>The small API the report's sort keys, script and annotate use: {@link #frames} (addr2line's
 * records: innermost function and line, then each inlined call), {@link #srcline} and
 * {@link #srcfile} (perf's text, its fallbacks included). Addresses are a DSO's own (a
 * {@code Frame}'s addr: the file offset for ELF DSOs). Thread-safe.
 */
public final class SourceLines {
    /** perf's SRCLINE_UNKNOWN. */
    public static final String UNKNOWN = "??:0";
    /** perf's A2L_FAIL_LIMIT: lookups that may fail before a DSO's first success. */
    static final int A2L_FAIL_LIMIT = 123;
    private static final int STV_HIDDEN = 2;

    private final SymbolResolver resolver;
    private final Map<Dso, DsoLines> byDso = new HashMap<>();
    private final List<String> warnings = new ArrayList<>();

    SourceLines(SymbolResolver resolver) {
        this.resolver = resolver;
    }

    /** What perf knows of one DSO's lines: its debug information and the answers given so far. */
    private static final class DsoLines {
        /** The DWARF addr2line reads; null when none was found. */
        Addr2Line dwarf;
        /** PT_LOAD segments of the DSO's image: file offset, size, address, as triples. */
        long[] segments = new long[0];
        /** The symsrc's functions as binutils' elf_find_function sees them (sorted by address). */
        long[] funcStart = new long[0];
        /** binutils' code size: the symbol's size, 1 for none. */
        long[] funcSize = new long[0];
        int[] funcSection = new int[0];
        String[] funcFile = new String[0];
        /** Whether the functions are .dynsym's (addr2line falls back to it; objdump does not). */
        boolean dynamicFunctions;
        /** The symbols' names, for a record binutils names by the symbol table. */
        String[] funcName = new String[0];
        /** The sections of the symsrc: address, size per index (for addresses outside every one). */
        long[] sectionAddr = new long[0];
        long[] sectionSize = new long[0];
        boolean[] sectionAlloc = new boolean[0];
        /** Whether addr2line could run at all (a file to give it). */
        boolean runnable;
        /** perf's dso->a2l_fails (1 until the first success, then 0) and has_srcline. */
        int fails = 1;
        boolean hasSrcline = true;
        final Map<Long, List<Addr2Line.Frame>> frames = new HashMap<>();
        final Map<Long, String> srclines = new HashMap<>();
        /** perf's dso->inlined_nodes: the inline chain's symbols by address. */
        final Map<Long, Inlines> inlines = new HashMap<>();
        /** The inlined symbols made so far: one object per name and symbol inlined into, as exports key frames by symbol. */
        final Map<InlinedName, Symbol> inlinedSymbols = new HashMap<>();
    }

    private record InlinedName(Symbol base, String name) {}

    /** Problems met reading debug information (perf prints such lines with -v only). */
    public synchronized List<String> warnings() {
        return List.copyOf(warnings);
    }

    /**
     * addr2line's records for {@code addr} in {@code dso}: the function and file:line of the
     * address, then for each inlined call the function it is inlined into and the call's
     * file:line (innermost first; a function null where binutils names it by the ELF symbol);
     * empty when the DSO has no line for it. Kernel, BPF and perf-map DSOs have none.
     */
    public synchronized List<Addr2Line.Frame> frames(Dso dso, long addr) {
        DsoLines d = lines(dso);
        List<Addr2Line.Frame> f = d.frames.get(addr);
        if (f == null) {
            f = d.dwarf == null ? List.of() : d.dwarf.frames(vaddr(d, addr));
            d.frames.put(addr, f);
        }
        return f;
    }

    /**
     * What binutils' bfd_find_nearest_line_discriminator answers objdump -l for an address: the
     * innermost function's name as the DWARF or the symbol table gives it (not demangled), the
     * file and line (0 when none), the row's discriminator.
     */
    public record NearestLine(String function, String file, long line, long discriminator) {}

    /** objdump's nearest line of {@code addr} (a DSO address) in {@code dso}; null when binutils finds none. */
    public synchronized NearestLine nearestLine(Dso dso, long addr) {
        DsoLines d = lines(dso);
        if (!d.runnable) {
            return null;
        }
        long va = vaddr(d, addr);
        List<Addr2Line.Frame> f = frames(dso, addr);
        // objdump gives binutils its .symtab only, never .dynsym as addr2line does
        if (f.isEmpty()) {
            int i = d.dynamicFunctions ? -1 : symbolFunction(d, va);
            return i < 0 ? null : new NearestLine(d.funcName[i], symbolFile(d, va), 0, 0);
        }
        String fn = f.get(0).function();
        return new NearestLine(fn != null || d.dynamicFunctions ? fn : symbolName(d, va), f.get(0).file(), f.get(0).line(),
                d.dwarf.discriminator(va));
    }

    /**
     * perf's inline_node of an address: per addr2line record, innermost first, the symbol perf
     * names the frame with and the record's srcline ("file:line", the file's base name).
     */
    public record Inlines(Symbol[] symbols, String[] srclines) {}

    /**
     * perf's inline_node of {@code addr} in {@code dso} (dso__parse_addr_inlines, cached as perf's
     * dso->inlined_nodes): a symbol per addr2line record, each named as addr2line names the
     * function (demangled as the DSO's symbols are): {@code sym} itself when the name is its name,
     * else an {@link Symbol#inlined() inlined} symbol with {@code sym}'s range. An address without
     * a line but in a function of the symbol table is one record, at line 0 of the symbol's
     * STT_FILE name, as addr2line answers it. Null when addr2line has no record or is not run (no file): then perf keeps the
     * frame as it is. {@code sym} must be the symbol at {@code addr}, as perf's cache assumes.
     */
    public synchronized Inlines inlines(Dso dso, long addr, Symbol sym) {
        DsoLines d = lines(dso);
        Inlines in = d.inlines.get(addr);
        if (in == null && !d.inlines.containsKey(addr)) {
            in = parseInlines(d, dso, addr, sym);
            d.inlines.put(addr, in);
        }
        return in;
    }

    private Inlines parseInlines(DsoLines d, Dso dso, long addr, Symbol sym) {
        if (!d.runnable) {
            return null;
        }
        // addr2line answers without DWARF too: the symbol table's function, at ??:0
        List<Addr2Line.Frame> f = frames(dso, addr);
        if (f.isEmpty()) {
            int i = symbolFunction(d, vaddr(d, addr));
            if (i < 0) {
                return null;
            }
            f = List.of(new Addr2Line.Frame(d.funcName[i], symbolFile(d, vaddr(d, addr)), 0));
        }
        Symbol[] syms = new Symbol[f.size()];
        String[] lines = new String[f.size()];
        Demangler demangler = resolver.options().demangler();
        for (int i = 0; i < syms.length; i++) {
            Addr2Line.Frame r = f.get(i);
            String fn = r.function();
            if (fn == null) {
                fn = symbolName(d, vaddr(d, addr));
            }
            if (fn == null) {
                fn = "??";
            } else if (demangler != null) {
                fn = demangler.demangle(fn);
            }
            syms[i] = fn.equals(sym.name()) ? sym
                    : d.inlinedSymbols.computeIfAbsent(new InlinedName(sym, fn), k -> Symbol.inlined(k.base(), k.name(), null));
            String file = r.file() == null ? "??" : r.file();
            // perf's srcline_from_fileline: the base name unless --full-source-path
            lines[i] = (resolver.options().fullSourcePath() ? file : file.substring(file.lastIndexOf('/') + 1)) + ":" + r.line();
        }
        return new Inlines(syms, lines);
    }

    /**
     * perf's get_srcline(dso, addr, sym, show_sym, show_addr): "file:line" (the file's base name,
     * or the whole path with {@code fullPath}, perf's --full-source-path), where addr2line names
     * none perf's fallback: with {@code showAddr} the symbol and the offset of {@code ip} in it
     * (decimal; without {@code showSym} only "+offset"), else the DSO's short name and the address
     * in brackets; without {@code showAddr} the symbol's name, or {@link #UNKNOWN}. Cached per DSO
     * and address as perf caches it (the first answer holds).
     */
    public synchronized String srcline(Dso dso, long addr, Symbol sym, boolean showSym, boolean showAddr, long ip,
            boolean fullPath) {
        DsoLines d = lines(dso);
        String s = d.srclines.get(addr);
        if (s == null) {
            s = lookup(dso, d, addr, sym, showSym, showAddr, ip, fullPath);
            d.srclines.put(addr, s);
        }
        return s;
    }

    /**
     * perf's map__srcline(map, addr, sym) of a DSO's address: {@link #srcline} with the symbol and
     * the address shown in the fallback; {@link #UNKNOWN} without a DSO.
     */
    public static String mapSrcline(Dso dso, long addr, Symbol sym) {
        if (dso == null) {
            return UNKNOWN;
        }
        SourceLines l = dso.sourceLines();
        return l != null ? l.srcline(dso, addr, sym, true, true, addr, false) : fallback(dso, addr, sym, true, true, addr);
    }

    /** perf's hist_entry__get_srcfile: the file part of the srcline, "" when there is none. */
    public String srcfile(Dso dso, long addr, Symbol sym, long ip, boolean fullPath) {
        String s;
        synchronized (this) {
            s = lookup(dso, lines(dso), addr, sym, false, true, ip, fullPath);
        }
        if (s.equals(UNKNOWN)) {
            return "";
        }
        int colon = s.indexOf(':');
        return colon >= 0 ? s.substring(0, colon) : "";
    }

    /** perf's __get_srcline, its DSO's failure count included. */
    private String lookup(Dso dso, DsoLines d, long addr, Symbol sym, boolean showSym, boolean showAddr, long ip,
            boolean fullPath) {
        if (d.hasSrcline && d.runnable) {
            String file = null;
            long line = 0;
            List<Addr2Line.Frame> f = frames(dso, addr);
            if (!f.isEmpty()) {
                file = f.get(0).file() == null ? "??" : f.get(0).file();
                line = f.get(0).line();
            } else {
                file = symbolFile(d, vaddr(d, addr));
            }
            if (file != null) {
                d.fails = 0;
                if (!fullPath && !resolver.options().fullSourcePath()) {
                    file = file.substring(file.lastIndexOf('/') + 1);
                }
                return file + ":" + line;
            }
        }
        if (d.fails != 0 && ++d.fails > A2L_FAIL_LIMIT) {
            d.hasSrcline = false;
        }
        return fallback(dso, addr, sym, showSym, showAddr, ip);
    }

    /** perf's srcline where addr2line gives none (see {@link #srcline}). */
    public static String fallback(Dso dso, long addr, Symbol sym, boolean showSym, boolean showAddr, long ip) {
        if (!showAddr) {
            return showSym && sym != null ? sym.name() : UNKNOWN;
        }
        if (sym != null) {
            return (showSym ? sym.name() : "") + "+" + Long.toUnsignedString(ip - sym.start());
        }
        return dso.shortName() + "[" + Long.toHexString(addr) + "]";
    }

    /**
     * Where addr2line has no line but binutils' symbol-table search finds a function around the
     * address: the name of the STT_FILE symbol before a local function ("??" for none or for a
     * global), which addr2line prints with line "?" (perf reads 0). Null when it finds no function.
     */
    private static String symbolFile(DsoLines d, long vaddr) {
        int i = symbolFunction(d, vaddr);
        return i < 0 ? null : d.funcFile[i] == null ? "??" : d.funcFile[i];
    }

    /** The symbol binutils' symbol-table search names {@code vaddr} by (its name: addr2line's function); null when none. */
    private static String symbolName(DsoLines d, long vaddr) {
        int i = symbolFunction(d, vaddr);
        return i < 0 ? null : d.funcName[i];
    }

    /**
     * binutils' _bfd_elf_find_function: of the symbols in the allocated section holding the
     * address, the one starting closest below it, whether or not its size reaches it (a size 0
     * counts as 1); of those at one address the largest, else the first in the table (binutils 2.40,
     * Debian 12's: checked with addr2line on symbols made to tie). The index, -1 when none.
     */
    private static int symbolFunction(DsoLines d, long vaddr) {
        int sec = -1;
        for (int s = 0; s < d.sectionAddr.length; s++) {
            if (d.sectionAlloc[s] && Long.compareUnsigned(vaddr - d.sectionAddr[s], d.sectionSize[s]) < 0) {
                sec = s;
                break;
            }
        }
        if (sec < 0) {
            return -1;
        }
        int hi = -1;
        int lo = 0;
        int top = d.funcStart.length - 1;
        while (lo <= top) {
            int mid = (lo + top) >>> 1;
            if (Long.compareUnsigned(d.funcStart[mid], vaddr) <= 0) {
                hi = mid;
                lo = mid + 1;
            } else {
                top = mid - 1;
            }
        }
        // walk down to the closest start with a symbol of the section (sorted by start, stable in table order)
        while (hi >= 0 && Long.compareUnsigned(d.funcStart[hi], d.sectionAddr[sec]) >= 0) {
            long start = d.funcStart[hi];
            int first = hi;
            while (first > 0 && d.funcStart[first - 1] == start) {
                first--;
            }
            int best = -1;
            for (int i = first; i <= hi; i++) {
                if (d.funcSection[i] == sec && (best < 0 || Long.compareUnsigned(d.funcSize[i], d.funcSize[best]) > 0)) {
                    best = i;
                }
            }
            if (best >= 0) {
                return best;
            }
            hi = first - 1;
        }
        return -1;
    }

    /** A DSO address (a file offset for ELF DSOs) as an address of the file's own, through its PT_LOAD segments. */
    private static long vaddr(DsoLines d, long addr) {
        long[] s = d.segments;
        for (int i = 0; i + 2 < s.length; i += 3) {
            if (Long.compareUnsigned(addr - s[i], s[i + 1]) < 0) {
                return addr - s[i] + s[i + 2];
            }
        }
        return addr;
    }

    private DsoLines lines(Dso dso) {
        DsoLines d = byDso.get(dso);
        if (d == null) {
            d = new DsoLines();
            byDso.put(dso, d);
            if (dso.kind() == Dso.Kind.USER) {
                try {
                    load(dso, d);
                } catch (java.io.IOException | RuntimeException e) {
                    warnings.add(dso.longName() + ": " + e.getMessage());
                }
            }
        }
        return d;
    }

    /** Finds the file perf gives addr2line and the DWARF addr2line reads for it. */
    private void load(Dso dso, DsoLines d) throws java.io.IOException {
        SymbolResolver.Images images = resolver.images(dso, warnings);
        ElfFile symsrc = images.symsrc();
        if (symsrc == null) {
            return;
        }
        d.runnable = true;
        ElfFile runtime = images.runtime() != null ? images.runtime() : symsrc;
        List<long[]> segs = new ArrayList<>();
        for (ElfProgramHeader p : runtime.programHeaders()) {
            if (p.type() == ElfProgramHeader.PT_LOAD) {
                segs.add(new long[] {p.offset(), p.filesz(), p.vaddr()});
            }
        }
        d.segments = new long[3 * segs.size()];
        for (int i = 0; i < segs.size(); i++) {
            System.arraycopy(segs.get(i), 0, d.segments, 3 * i, 3);
        }
        readFunctions(symsrc, d);
        ElfFile debug = hasDwarf(symsrc) ? symsrc : separateDebug(symsrc, images.symsrcPath());
        if (debug != null) {
            d.dwarf = Addr2Line.of(DebugSections.of(debug));
            for (String w : d.dwarf.warnings()) {
                warnings.add(debug.name() + ": " + w);
            }
        }
    }

    private static boolean hasDwarf(ElfFile f) {
        return present(f, ".debug_line") || present(f, ".zdebug_line") || present(f, ".debug_info");
    }

    private static boolean present(ElfFile f, String name) {
        Optional<ElfSection> s = f.section(name);
        return s.isPresent() && s.get().type() != ElfSection.SHT_NOBITS;
    }

    /**
     * binutils' separate debug file: by build-id under the debug directory, else the
     * {@code .gnu_debuglink} name beside the file, in its {@code .debug/}, under the debug directory.
     */
    private ElfFile separateDebug(ElfFile f, Path path) {
        Path debugDir = resolver.options().debugDir();
        List<Path> candidates = new ArrayList<>();
        byte[] id = null;
        try {
            id = f.buildId().orElse(null);
            if (id != null) {
                String hex = SymbolResolver.hex(id);
                candidates.add(debugDir.resolve(".build-id").resolve(hex.substring(0, 2)).resolve(hex.substring(2) + ".debug"));
            }
            Optional<ElfDebugLink> link = f.debugLink();
            if (link.isPresent() && path != null) {
                Path dir = path.toAbsolutePath().getParent() == null ? Path.of("/") : path.toAbsolutePath().getParent();
                String name = link.get().fileName();
                candidates.add(dir.resolve(name));
                candidates.add(dir.resolve(".debug").resolve(name));
                candidates.add(Path.of(debugDir + dir.toString()).resolve(name));
            }
        } catch (RuntimeException | dev.jperf.format.elf.ElfException e) {
            warnings.add(f.name() + ": " + e.getMessage());
        }
        for (Path p : candidates) {
            if (!Files.isRegularFile(p) || p.equals(path)) {
                continue;
            }
            try {
                ElfFile e = ElfFile.open(p);
                if (id != null && !Arrays.equals(id, e.buildId().orElse(null))) {
                    continue;
                }
                if (hasDwarf(e)) {
                    return e;
                }
            } catch (java.io.IOException | RuntimeException e) {
                warnings.add(p + ": " + e.getMessage());
            }
        }
        return null;
    }

    /**
     * The functions binutils' elf_find_function can name, in the symsrc's .symtab (else .dynsym):
     * FUNC, IFUNC and NOTYPE symbols of a section, with the file a local one was compiled from (the
     * STT_FILE symbol before it; none for a global once symbols followed a file symbol).
     */
    private static void readFunctions(ElfFile f, DsoLines d) {
        List<ElfSection> secs = f.sections();
        d.sectionAddr = new long[secs.size()];
        d.sectionSize = new long[secs.size()];
        d.sectionAlloc = new boolean[secs.size()];
        for (int i = 0; i < secs.size(); i++) {
            d.sectionAddr[i] = secs.get(i).addr();
            d.sectionSize[i] = secs.get(i).size();
            d.sectionAlloc[i] = secs.get(i).isAlloc();
        }
        Optional<ElfSection> table = f.section(".symtab").filter(s -> s.type() == ElfSection.SHT_SYMTAB);
        if (table.isEmpty()) {
            table = f.section(".dynsym").filter(s -> s.type() == ElfSection.SHT_DYNSYM);
            d.dynamicFunctions = table.isPresent();
        }
        if (table.isEmpty()) {
            return;
        }
        List<ElfSymbol> syms;
        try {
            syms = f.symbols(table.get());
        } catch (dev.jperf.format.elf.ElfException e) {
            return;
        }
        List<long[]> out = new ArrayList<>();
        List<String> files = new ArrayList<>();
        List<String> names = new ArrayList<>();
        String file = null;
        boolean symbolSeen = false;
        boolean fileAfterSymbol = false;
        for (ElfSymbol s : syms) {
            int type = s.type();
            if (type == ElfSymbol.STT_FILE) {
                file = s.name();
                fileAfterSymbol = symbolSeen;
                continue;
            }
            // binutils' elf_maybe_function_sym: not hidden local NOTYPE symbols of size 0 (annobin's markers)
            boolean marker = s.size() == 0 && type == ElfSymbol.STT_NOTYPE && s.bind() == ElfSymbol.STB_LOCAL
                    && (s.other() & 3) == STV_HIDDEN;
            if (s.shndx() != ElfSymbol.SHN_UNDEF && s.shndx() < secs.size() && !s.name().isEmpty() && !marker
                    && (type == ElfSymbol.STT_FUNC || type == ElfSymbol.STT_GNU_IFUNC || type == ElfSymbol.STT_NOTYPE)) {
                String name = file == null || s.bind() != ElfSymbol.STB_LOCAL && fileAfterSymbol ? null : file;
                out.add(new long[] {s.value(), Math.max(s.size(), 1), s.shndx()});
                files.add(name);
                names.add(s.name());
            }
            if (s.name().length() > 0 || type != ElfSymbol.STT_NOTYPE) {
                symbolSeen = true;
            }
        }
        Integer[] order = new Integer[out.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        // stable: symbols at one address stay in table order, which better_fit's ties follow
        Arrays.sort(order, (a, b) -> Long.compareUnsigned(out.get(a)[0], out.get(b)[0]));
        int n = order.length;
        d.funcStart = new long[n];
        d.funcSize = new long[n];
        d.funcSection = new int[n];
        d.funcFile = new String[n];
        d.funcName = new String[n];
        for (int i = 0; i < n; i++) {
            long[] v = out.get(order[i]);
            d.funcStart[i] = v[0];
            d.funcSize[i] = v[1];
            d.funcSection[i] = (int) v[2];
            d.funcFile[i] = files.get(order[i]);
            d.funcName[i] = names.get(order[i]);
        }
    }
}
