package dev.jperf.report.symbol;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A kallsyms file ({@code /proc/kallsyms} format: {@code ADDR TYPE NAME [\tMODULE]}), kept as perf
 * keeps it: text, weak, data and bss symbols (types T, W, D, B in either case); kernel symbols and
 * each module's symbols apart.
 */
public final class Kallsyms {
    /** The names perf's kernel MMAP can refer to ("[kernel.kallsyms]_text"): kept for KASLR. */
    private static final List<String> REF_NAMES = List.of("_text", "_stext");

    private final SymbolTable kernel;
    private final Map<String, SymbolTable> modules;
    private final Map<String, Long> refs;

    private Kallsyms(SymbolTable kernel, Map<String, SymbolTable> modules, Map<String, Long> refs) {
        this.kernel = kernel;
        this.modules = modules;
        this.refs = refs;
    }

    public static Kallsyms parse(Path file) throws IOException {
        List<Symbol> kernel = new ArrayList<>(1 << 17);
        Map<String, List<Symbol>> mods = new LinkedHashMap<>();
        Map<String, Long> refs = new HashMap<>();
        // one pass over the bytes: a few hundred thousand lines, parsed in one loop the JIT
        // compiles early (line strings, substrings and parseLong cost 2-3x more, mostly interpreted)
        byte[] b = Files.readAllBytes(file);
        int n = b.length;
        int lineNo = 0;
        for (int p = 0; p < n;) {
            int eol = p;
            while (eol < n && b[eol] != '\n') {
                eol++;
            }
            int end = eol > p && b[eol - 1] == '\r' ? eol - 1 : eol;
            int start = p;
            p = eol + 1;
            lineNo++;
            if (blank(b, start, end)) {
                continue;
            }
            long addr = 0;
            int sp = start;
            for (; sp < end && b[sp] != ' '; sp++) {
                int d = Character.digit(b[sp], 16);
                if (d < 0 || sp - start >= 16) {
                    throw new IOException(file + ":" + lineNo + ": bad address");
                }
                addr = addr << 4 | d;
            }
            if (sp == start || sp + 3 > end || b[sp + 2] != ' ') {
                throw new IOException(file + ":" + lineNo + ": not a kallsyms line");
            }
            char type = (char) (b[sp + 1] & 0xff);
            char up = Character.toUpperCase(type);
            if (up != 'T' && up != 'W' && up != 'D' && up != 'B') {
                continue;
            }
            int nameAt = sp + 3;
            int tab = nameAt;
            while (tab < end && b[tab] != '\t') {
                tab++;
            }
            if (tab > nameAt && b[nameAt] == '$') {
                continue;
            }
            String name = new String(b, nameAt, tab - nameAt, StandardCharsets.ISO_8859_1);
            int binding = type == 'W' ? 2 : Character.isUpperCase(type) ? 1 : 0;
            int stype = up == 'T' || up == 'W' ? Symbol.STT_FUNC : Symbol.STT_OBJECT;
            Symbol s = new Symbol(addr, addr, name, stype, binding);
            if (tab == end) {
                kernel.add(s);
                if (REF_NAMES.contains(name)) {
                    refs.putIfAbsent(name, addr);
                }
            } else {
                String mod = new String(b, tab + 1, end - tab - 1, StandardCharsets.ISO_8859_1).trim();
                mods.computeIfAbsent(mod, k -> new ArrayList<>()).add(s);
            }
        }
        Map<String, SymbolTable> modTables = new LinkedHashMap<>();
        mods.forEach((m, l) -> modTables.put(m, SymbolTable.ofKallsyms(l)));
        return new Kallsyms(SymbolTable.ofKallsyms(kernel), modTables, refs);
    }

    private static boolean blank(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (!Character.isWhitespace(b[i])) {
                return false;
            }
        }
        return true;
    }

    /**
     * The address of a kernel reference symbol ({@code _text}, {@code _stext}) as the file has it
     * (symbols sharing an address are merged in {@link #kernel()}, so it may not be found there),
     * or null.
     */
    public Long refSymbol(String name) {
        return refs.get(name);
    }

    public SymbolTable kernel() {
        return kernel;
    }

    /** Module name as written, brackets included ("[ext4]") -> its symbols. */
    public Map<String, SymbolTable> modules() {
        return modules;
    }
}
