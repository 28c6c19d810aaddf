package dev.jperf.report.symbol;

import java.io.BufferedReader;
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
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            String line;
            int lineNo = 0;
            while ((line = r.readLine()) != null) {
                lineNo++;
                int sp = line.indexOf(' ');
                if (sp <= 0 || sp + 3 > line.length() || line.charAt(sp + 2) != ' ') {
                    if (line.isBlank()) {
                        continue;
                    }
                    throw new IOException(file + ":" + lineNo + ": not a kallsyms line");
                }
                long addr;
                try {
                    addr = Long.parseUnsignedLong(line, 0, sp, 16);
                } catch (NumberFormatException e) {
                    throw new IOException(file + ":" + lineNo + ": bad address");
                }
                char type = line.charAt(sp + 1);
                char up = Character.toUpperCase(type);
                if (up != 'T' && up != 'W' && up != 'D' && up != 'B') {
                    continue;
                }
                String rest = line.substring(sp + 3);
                int tab = rest.indexOf('\t');
                String name = tab < 0 ? rest : rest.substring(0, tab);
                if (name.startsWith("$")) {
                    continue;
                }
                int binding = type == 'W' ? 2 : Character.isUpperCase(type) ? 1 : 0;
                int stype = up == 'T' || up == 'W' ? Symbol.STT_FUNC : Symbol.STT_OBJECT;
                Symbol s = new Symbol(addr, addr, name, stype, binding);
                if (tab < 0) {
                    kernel.add(s);
                    if (REF_NAMES.contains(name)) {
                        refs.putIfAbsent(name, addr);
                    }
                } else {
                    String mod = rest.substring(tab + 1).trim();
                    mods.computeIfAbsent(mod, k -> new ArrayList<>()).add(s);
                }
            }
        }
        Map<String, SymbolTable> modTables = new LinkedHashMap<>();
        mods.forEach((m, l) -> modTables.put(m, SymbolTable.ofKallsyms(l)));
        return new Kallsyms(SymbolTable.ofKallsyms(kernel), modTables, refs);
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
