package dev.jperf.report.symbol;

import java.util.ArrayList;
import java.util.List;

/**
 * The symbols of one DSO, sorted by start address, found by binary search. Built with perf's
 * clean-up rules (symbols__fixup_duplicate, symbols__fixup_end) so the same address gets the same
 * name as in perf.
 */
public final class SymbolTable {
    public static final SymbolTable EMPTY = new SymbolTable(new ArrayList<>());

    private static final int STB_GLOBAL = 1;
    private static final int STB_WEAK = 2;

    private final Symbol[] symbols;
    private final long[] starts;
    private final long[] ends;
    /** Kallsyms tables keep names as ranges of the file's bytes; a Symbol is made when first found. */
    private final LazyNames lazy;

    /** Names in a shared byte array (ISO-8859-1) and each symbol's type and binding. */
    record LazyNames(byte[] bytes, int[] at, int[] len, byte[] type, byte[] binding) {
        String name(int i) {
            return new String(bytes, at[i], len[i], java.nio.charset.StandardCharsets.ISO_8859_1);
        }
    }

    private SymbolTable(List<Symbol> sorted) {
        symbols = sorted.toArray(new Symbol[0]);
        starts = new long[symbols.length];
        ends = new long[symbols.length];
        for (int i = 0; i < symbols.length; i++) {
            starts[i] = symbols[i].start();
            ends[i] = symbols[i].end();
        }
        lazy = null;
    }

    private SymbolTable(long[] starts, long[] ends, LazyNames lazy) {
        this.symbols = new Symbol[starts.length];
        this.starts = starts;
        this.ends = ends;
        this.lazy = lazy;
    }

    /**
     * Kernel symbols (all of length 0) in address order, names as ranges of {@code names.bytes()}:
     * ends first, then duplicates, as __dso__load_kallsyms does, so of several names at one
     * address the last one gets the length and wins. No object per symbol until a sample finds it
     * (a kernel has ~130k).
     */
    static SymbolTable ofKallsyms(long[] start, LazyNames names, int n) {
        long[] end = new long[n];
        // symbols__fixup_end with kallsyms' rule across the [module] boundary
        boolean prev = n > 0 && bracket(names, 0);
        for (int i = 1; i < n; i++) {
            boolean b = bracket(names, i);
            if (prev != b) {
                end[i - 1] = roundUp4k(start[i - 1] + 4096);
            } else {
                end[i - 1] = start[i];
            }
            prev = b;
        }
        if (n > 0) {
            end[n - 1] = roundUp4k(start[n - 1]) + 4096;
        }
        // symbols__fixup_duplicate: of a run at one address, choose_best_symbol's pick
        int[] keep = new int[n];
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (k > 0 && start[keep[k - 1]] == start[i]) {
                if (!chooseFirst(end[keep[k - 1]] - start[keep[k - 1]], names.binding()[keep[k - 1]],
                        names.name(keep[k - 1]), end[i] - start[i], names.binding()[i], names.name(i))) {
                    keep[k - 1] = i;
                }
                continue;
            }
            keep[k++] = i;
        }
        long[] s2 = new long[k];
        long[] e2 = new long[k];
        int[] at = new int[k];
        int[] len = new int[k];
        byte[] type = new byte[k];
        byte[] binding = new byte[k];
        for (int j = 0; j < k; j++) {
            int i = keep[j];
            s2[j] = start[i];
            e2[j] = end[i];
            at[j] = names.at()[i];
            len[j] = names.len()[i];
            type[j] = names.type()[i];
            binding[j] = names.binding()[i];
        }
        return new SymbolTable(s2, e2, new LazyNames(names.bytes(), at, len, type, binding));
    }

    private static boolean bracket(LazyNames names, int i) {
        byte[] b = names.bytes();
        for (int p = names.at()[i], e = p + names.len()[i]; p < e; p++) {
            if (b[p] == '[') {
                return true;
            }
        }
        return false;
    }

    /** ELF symbols: ends first (zero sizes), then duplicates, then extra symbols (PLT) added as they are. */
    public static SymbolTable ofElf(List<Symbol> syms, List<Symbol> extra) {
        List<Symbol> s = sortStable(syms);
        if (!s.isEmpty()) {
            fixupEnd(s);
            s = fixupDuplicate(s);
        }
        if (!extra.isEmpty()) {
            s.addAll(extra);
            s = sortStable(s);
        }
        return new SymbolTable(s);
    }

    /** Symbols that need no clean-up (BPF functions, perf maps): sorted as given. */
    public static SymbolTable of(List<Symbol> syms) {
        return new SymbolTable(sortStable(syms));
    }

    public int size() {
        return symbols.length;
    }

    public List<Symbol> symbols() {
        for (int i = 0; i < symbols.length; i++) {
            symbol(i);
        }
        return List.of(symbols);
    }

    /** Start of the i-th symbol in address order. */
    public long start(int i) {
        return starts[i];
    }

    /** End of the i-th symbol in address order. */
    public long end(int i) {
        return ends[i];
    }

    private Symbol symbol(int i) {
        Symbol s = symbols[i];
        if (s == null) {
            s = new Symbol(starts[i], ends[i], lazy.name(i), lazy.type()[i], lazy.binding()[i]);
            symbols[i] = s;
        }
        return s;
    }

    /**
     * The symbol containing {@code addr}; where ranges overlap (a zero-sized symbol stretched over
     * the PLT), the one starting last wins, as the PLT entry does in perf.
     */
    public Symbol find(long addr) {
        int lo = 0;
        int hi = starts.length - 1;
        int best = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(starts[mid], addr) <= 0) {
                best = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        for (int i = best, n = 0; i >= 0 && n < 8; i--, n++) {
            // Symbol.contains over the arrays
            if (Long.compareUnsigned(addr, ends[i]) < 0 || addr == starts[i]) {
                return symbol(i);
            }
        }
        return null;
    }

    private static List<Symbol> sortStable(List<Symbol> syms) {
        List<Symbol> s = new ArrayList<>(syms);
        s.sort((a, b) -> Long.compareUnsigned(a.start(), b.start()));
        return s;
    }

    private static List<Symbol> fixupDuplicate(List<Symbol> s) {
        List<Symbol> out = new ArrayList<>(s.size());
        for (Symbol next : s) {
            if (!out.isEmpty()) {
                Symbol curr = out.get(out.size() - 1);
                if (curr.start() == next.start()) {
                    if (!chooseFirst(curr, next)) {
                        out.set(out.size() - 1, next);
                    }
                    continue;
                }
            }
            out.add(next);
        }
        return out;
    }

    /** perf's choose_best_symbol: true when {@code a} is kept over {@code b}. */
    private static boolean chooseFirst(Symbol a, Symbol b) {
        return chooseFirst(a.end() - a.start(), a.binding(), a.name(), b.end() - b.start(), b.binding(), b.name());
    }

    private static boolean chooseFirst(long la, int bindingA, String nameA, long lb, int bindingB, String nameB) {
        if (lb == 0 && la > 0) {
            return true;
        } else if (la == 0 && lb > 0) {
            return false;
        }
        boolean wa = bindingA == STB_WEAK;
        boolean wb = bindingB == STB_WEAK;
        if (wb && !wa) {
            return true;
        }
        if (wa && !wb) {
            return false;
        }
        boolean ga = bindingA == STB_GLOBAL;
        boolean gb = bindingB == STB_GLOBAL;
        if (ga && !gb) {
            return true;
        }
        if (gb && !ga) {
            return false;
        }
        int ua = underscores(nameA);
        int ub = underscores(nameB);
        if (ub > ua) {
            return true;
        } else if (ua > ub) {
            return false;
        }
        return nameA.length() >= nameB.length();
    }

    private static int underscores(String s) {
        int n = 0;
        while (n < s.length() && s.charAt(n) == '_') {
            n++;
        }
        return n;
    }

    /** perf's symbols__fixup_end for ELF symbols: a zero-sized symbol ends where the next one starts. */
    private static void fixupEnd(List<Symbol> s) {
        for (int i = 1; i < s.size(); i++) {
            Symbol prev = s.get(i - 1);
            Symbol curr = s.get(i);
            if (prev.end() == prev.start()) {
                prev.setEnd(curr.start());
            }
        }
        if (!s.isEmpty()) {
            Symbol last = s.get(s.size() - 1);
            if (last.end() == last.start()) {
                last.setEnd(roundUp4k(last.start()) + 4096);
            }
        }
    }

    private static long roundUp4k(long v) {
        return (v + 4095) & ~4095L;
    }
}
