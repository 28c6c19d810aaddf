package dev.jperf.report.symbol;

import dev.jperf.format.kallsyms.KallsymsParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A kallsyms file ({@code /proc/kallsyms} format: {@code ADDR TYPE NAME [\tMODULE]}), kept as perf
 * keeps it: text, weak, data and bss symbols (types T, W, D, B in either case); kernel symbols and
 * each module's symbols apart. A file whose every address is 0 is refused: that is /proc/kallsyms as
 * the kernel shows it to a user it hides addresses from (kptr_restrict, perf_event_paranoid), and
 * perf ignores it then (symbol__restricted_filename); its names would all sit at 0.
 */
public final class Kallsyms {
    /** The names perf's kernel MMAP can refer to ("[kernel.kallsyms]_text"): kept for KASLR. */
    private static final String[] REF_NAMES = {"_text", "_stext"};

    private final SymbolTable kernel;
    private final Map<String, SymbolTable> modules;
    private final Map<String, Long> refs;

    private Kallsyms(SymbolTable kernel, Map<String, SymbolTable> modules, Map<String, Long> refs) {
        this.kernel = kernel;
        this.modules = modules;
        this.refs = refs;
    }

    /**
     * @throws IOException on a line that is not kallsyms, or when no address is known (all zero),
     *     in one line naming the file
     */
    public static Kallsyms parse(Path file) throws IOException {
        Map<String, Table> tables = new LinkedHashMap<>();
        Map<String, Long> refs = new HashMap<>();
        // one pass over the bytes (format's parser: a line's fields are ranges, nothing allocated per
        // line); names stay ranges of these bytes until a sample finds their symbol
        byte[] b = Files.readAllBytes(file);
        // sized for the kernel's symbols at once (lines are ~45 bytes): grown by doubling from 1024,
        // the arrays were copied seven times (~5 MB of garbage) on the thread the session waits for
        Table kernel = new Table(Math.max(1024, b.length / 40));
        String mod = null;
        Table modTable = null;
        KallsymsParser p = KallsymsParser.of(b);
        boolean anyLine = false;
        boolean anyAddress = false;
        while (p.next()) {
            if (p.blank()) {
                continue;
            }
            if (!p.parseAddress()) {
                throw new IOException(file + ":" + p.lineNumber() + ": bad address");
            }
            if (!p.wellFormed()) {
                throw new IOException(file + ":" + p.lineNumber() + ": not a kallsyms line");
            }
            long addr = p.address();
            anyLine = true;
            anyAddress |= addr != 0;
            char type = p.type();
            // ASCII case: only t, w, d, b and their capitals pass (Character's tables cost a call per line)
            char up = type >= 'a' && type <= 'z' ? (char) (type - ('a' - 'A')) : type;
            if (up != 'T' && up != 'W' && up != 'D' && up != 'B') {
                continue;
            }
            int nameAt = p.nameStart();
            int tab = p.nameEnd();
            if (tab > nameAt && b[nameAt] == '$') {
                continue;
            }
            int binding = type == 'W' ? 2 : type == up ? 1 : 0;
            int stype = up == 'T' || up == 'W' ? Symbol.STT_FUNC : Symbol.STT_OBJECT;
            Table t;
            if (!p.hasModule()) {
                t = kernel;
                for (String ref : REF_NAMES) {
                    if (p.nameIs(ref)) {
                        refs.putIfAbsent(ref, addr);
                    }
                }
            } else {
                if (mod == null || !p.moduleIs(mod)) {
                    mod = new String(b, p.moduleStart(), p.lineEnd() - p.moduleStart(), StandardCharsets.ISO_8859_1);
                    modTable = tables.computeIfAbsent(mod.trim(), k -> new Table(1024));
                }
                t = modTable;
            }
            t.add(addr, nameAt, tab - nameAt, stype, binding);
        }
        if (anyLine && !anyAddress) {
            throw new IOException(file + ": every address is 0 (as the kernel shows them to a user it hides them from:"
                    + " kptr_restrict, perf_event_paranoid): kernel symbols unresolved");
        }
        Map<String, SymbolTable> modTables = new LinkedHashMap<>();
        tables.forEach((m, t) -> modTables.put(m, t.build(b)));
        return new Kallsyms(kernel.build(b), modTables, refs);
    }

    /** The symbols of one table as read: growable arrays, names as ranges of the file's bytes. */
    private static final class Table {
        private long[] start;
        private int[] at;
        private int[] len;
        private byte[] type;
        private byte[] binding;
        private int n;
        private boolean sorted = true;

        Table(int capacity) {
            start = new long[capacity];
            at = new int[capacity];
            len = new int[capacity];
            type = new byte[capacity];
            binding = new byte[capacity];
        }

        void add(long addr, int nameAt, int nameLen, int stype, int bind) {
            if (n == start.length) {
                int cap = n * 2;
                start = Arrays.copyOf(start, cap);
                at = Arrays.copyOf(at, cap);
                len = Arrays.copyOf(len, cap);
                type = Arrays.copyOf(type, cap);
                binding = Arrays.copyOf(binding, cap);
            }
            if (n > 0 && Long.compareUnsigned(addr, start[n - 1]) < 0) {
                sorted = false;
            }
            start[n] = addr;
            at[n] = nameAt;
            len[n] = nameLen;
            type[n] = (byte) stype;
            binding[n] = (byte) bind;
            n++;
        }

        SymbolTable build(byte[] bytes) {
            if (!sorted) {
                // /proc/kallsyms is in address order; another file is put in it (stable: of
                // several names at one address, file order decides)
                Integer[] order = new Integer[n];
                for (int i = 0; i < n; i++) {
                    order[i] = i;
                }
                Arrays.sort(order, (x, y) -> Long.compareUnsigned(start[x], start[y]));
                long[] s2 = new long[n];
                int[] at2 = new int[n];
                int[] len2 = new int[n];
                byte[] type2 = new byte[n];
                byte[] binding2 = new byte[n];
                for (int k = 0; k < n; k++) {
                    int i = order[k];
                    s2[k] = start[i];
                    at2[k] = at[i];
                    len2[k] = len[i];
                    type2[k] = type[i];
                    binding2[k] = binding[i];
                }
                start = s2;
                at = at2;
                len = len2;
                type = type2;
                binding = binding2;
            }
            return SymbolTable.ofKallsyms(start, new SymbolTable.LazyNames(bytes, at, len, type, binding), n);
        }
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
