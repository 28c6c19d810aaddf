package dev.jperf.report.symbol;

import dev.jperf.format.kallsyms.KallsymsIndex;
import java.io.IOException;
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
        // names stay ranges of the file's bytes until a sample finds their symbol
        KallsymsIndex ks = KallsymsIndex.read(file);
        if (ks.firstMalformed() > 0) {
            throw new IOException(file + ":" + ks.firstMalformed() + ": " + ks.malformedReason());
        }
        if (ks.hidden()) {
            throw new IOException(file + ": every address is 0 (as the kernel shows them to a user it hides them from:"
                    + " kptr_restrict, perf_event_paranoid): kernel symbols unresolved");
        }
        int n = ks.size();
        Map<String, Table> tables = new LinkedHashMap<>();
        Map<String, Long> refs = new HashMap<>();
        // among the first lines: a scan, not the name index
        for (int i = 0; i < n && refs.size() < REF_NAMES.length; i++) {
            if (!ks.hasModule(i) && kept(ks.type(i))) {
                for (String ref : REF_NAMES) {
                    if (ks.nameIs(i, ref)) {
                        refs.putIfAbsent(ref, ks.address(i));
                    }
                }
            }
        }
        Table kernel = new Table(Math.max(1024, n));
        String mod = null;
        Table modTable = null;
        byte[] b = ks.bytes();
        // in address order, so each table is in it too (of several names at one address, file order decides)
        for (int k = 0; k < n; k++) {
            int i = ks.byAddress(k);
            char type = ks.type(i);
            if (!kept(type)) {
                continue;
            }
            int nameAt = ks.nameStart(i);
            int nameLen = ks.nameLength(i);
            if (nameLen > 0 && b[nameAt] == '$') {
                continue;
            }
            char up = upper(type);
            int binding = type == 'W' ? 2 : type == up ? 1 : 0;
            int stype = up == 'T' || up == 'W' ? Symbol.STT_FUNC : Symbol.STT_OBJECT;
            Table t;
            String m = ks.module(i);
            if (m == null) {
                t = kernel;
            } else {
                if (!m.equals(mod)) {
                    mod = m;
                    modTable = tables.computeIfAbsent(m.trim(), x -> new Table(1024));
                }
                t = modTable;
            }
            t.add(ks.address(i), nameAt, nameLen, stype, binding);
        }
        Map<String, SymbolTable> modTables = new LinkedHashMap<>();
        tables.forEach((m, t) -> modTables.put(m, t.build(b)));
        return new Kallsyms(kernel.build(b), modTables, refs);
    }

    /** ASCII case: only t, w, d, b and their capitals are kept (Character's tables cost a call per line). */
    private static boolean kept(char type) {
        char up = upper(type);
        return up == 'T' || up == 'W' || up == 'D' || up == 'B';
    }

    private static char upper(char type) {
        return type >= 'a' && type <= 'z' ? (char) (type - ('a' - 'A')) : type;
    }

    /** The symbols of one table, in address order: growable arrays, names as ranges of the file's bytes. */
    private static final class Table {
        private long[] start;
        private int[] at;
        private int[] len;
        private byte[] type;
        private byte[] binding;
        private int n;

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
            start[n] = addr;
            at[n] = nameAt;
            len[n] = nameLen;
            type[n] = (byte) stype;
            binding[n] = (byte) bind;
            n++;
        }

        SymbolTable build(byte[] bytes) {
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
