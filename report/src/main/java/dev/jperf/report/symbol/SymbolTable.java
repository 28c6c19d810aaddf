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

    private SymbolTable(List<Symbol> sorted) {
        symbols = sorted.toArray(new Symbol[0]);
        starts = new long[symbols.length];
        for (int i = 0; i < symbols.length; i++) {
            starts[i] = symbols[i].start();
        }
    }

    /**
     * Kernel symbols (all of length 0): ends first, then duplicates, as __dso__load_kallsyms does,
     * so of several names at one address the last one gets the length and wins.
     */
    public static SymbolTable ofKallsyms(List<Symbol> syms) {
        List<Symbol> s = sortStable(syms);
        fixupEnd(s, true);
        return new SymbolTable(fixupDuplicate(s));
    }

    /** ELF symbols: ends first (zero sizes), then duplicates, then extra symbols (PLT) added as they are. */
    public static SymbolTable ofElf(List<Symbol> syms, List<Symbol> extra) {
        List<Symbol> s = sortStable(syms);
        if (!s.isEmpty()) {
            fixupEnd(s, false);
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
        return List.of(symbols);
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
            if (symbols[i].contains(addr)) {
                return symbols[i];
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
        long la = a.end() - a.start();
        long lb = b.end() - b.start();
        if (lb == 0 && la > 0) {
            return true;
        } else if (la == 0 && lb > 0) {
            return false;
        }
        boolean wa = a.binding() == STB_WEAK;
        boolean wb = b.binding() == STB_WEAK;
        if (wb && !wa) {
            return true;
        }
        if (wa && !wb) {
            return false;
        }
        boolean ga = a.binding() == STB_GLOBAL;
        boolean gb = b.binding() == STB_GLOBAL;
        if (ga && !gb) {
            return true;
        }
        if (gb && !ga) {
            return false;
        }
        int ua = underscores(a.name());
        int ub = underscores(b.name());
        if (ub > ua) {
            return true;
        } else if (ua > ub) {
            return false;
        }
        return a.name().length() >= b.name().length();
    }

    private static int underscores(String s) {
        int n = 0;
        while (n < s.length() && s.charAt(n) == '_') {
            n++;
        }
        return n;
    }

    /** perf's symbols__fixup_end: a zero-sized symbol ends where the next one starts. */
    private static void fixupEnd(List<Symbol> s, boolean kallsyms) {
        for (int i = 1; i < s.size(); i++) {
            Symbol prev = s.get(i - 1);
            Symbol curr = s.get(i);
            if (prev.end() == prev.start()) {
                if (kallsyms && (prev.name().indexOf('[') < 0) != (curr.name().indexOf('[') < 0)) {
                    prev.setEnd(roundUp4k(prev.end() + 4096));
                } else {
                    prev.setEnd(curr.start());
                }
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
