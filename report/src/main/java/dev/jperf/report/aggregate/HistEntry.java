package dev.jperf.report.aggregate;

import dev.jperf.format.record.PerfRecord;
import dev.jperf.report.session.Frame;
import dev.jperf.report.session.PerfThread;
import dev.jperf.report.symbol.Dso;
import dev.jperf.report.symbol.SourceLines;
import dev.jperf.report.symbol.Symbol;

/**
 * One row of the report (perf's hist_entry): the values of the sort keys, the first sample's
 * level and address, the self period (samples whose ip is here) and, in children mode, the
 * accumulated period (samples with this entry anywhere in their callchain).
 */
public final class HistEntry {
    /*
     * The key values: set once, except in Hists' search probe, which is refilled for every search
     * of perf's input tree until it is inserted (one probe object per miss was most of the
     * garbage of a children report).
     */
    String comm;
    PerfThread thread;
    /** The DSO of the entry's map: perf replaces the map by each merged sample's (hists__findnew_entry). */
    Dso dso;
    Symbol symbol;
    long ip;
    char level;
    int cpu;
    int order;
    /** The first frame's {@link Frame#symbolKey()}: equal for entries of the same symbol (-1 without). */
    int symbolKey;
    /** This entry's node in its search tree, or null. */
    EntryTree.Node treeNode;
    /**
     * The search tree's version when a search path to this entry last changed
     * ({@link EntryTree#version()}): a search result found at a later version still holds.
     */
    int pathStamp;
    /** The last {@link Hists} walk over a sample's chain that reached this entry (its mark). */
    int walkMark;
    long period;
    long periodAcc;
    long samples;
    /** The self period by CPU mode, kept when a column shows it: kernel, user, guest kernel, guest user. */
    long periodSys;
    long periodUs;
    long periodGuestSys;
    long periodGuestUs;
    /** Created by a sample --comm/--pid/--tid exclude: not printed (perf's he->filtered). */
    boolean filtered;
    /** The entry's call graph when one is printed (perf's he->callchain), else null. */
    Callchain callchain;
    /** Branch mode (perf's he->branch_info): the branch's source and target, else null. */
    Frame from;
    Frame to;
    /** Branch mode: the branch entry's cycles. */
    int cycles;
    /**
     * Branch mode: perf's branch_info srcline_from/srcline_to, made when a comparison first needs
     * them, else null (perf prints "(null)"); their lengths when the output sort placed the entry
     * (perf's hists__calc_col_len runs then).
     */
    String srclineFrom;
    String srclineTo;
    int srclineFromWidth;
    int srclineToWidth;
    /**
     * perf's he->srcline and he->srcfile (sort keys srcline, srcfile): made when a comparison
     * first needs them, else when printed; their lengths when the output sort placed the entry.
     */
    String srcline;
    String srcfile;
    int srclineWidth;
    int srcfileWidth;

    HistEntry(String comm, PerfThread thread, Frame f, long ip, char level, int cpu, int order) {
        key(comm, thread, f, ip, level, cpu, order);
    }

    /** An entry of these key values and no period (perf's dummy entry of a group leader). */
    HistEntry(String comm, PerfThread thread, Dso dso, Symbol symbol, long ip, char level, int cpu) {
        this.comm = comm;
        this.thread = thread;
        this.dso = dso;
        this.symbol = symbol;
        this.ip = ip;
        this.level = level;
        this.cpu = cpu;
        this.order = -1;
        this.symbolKey = -1;
    }

    /** Sets the key values (see above: only a probe that is not in the tree is refilled). */
    void key(String comm, PerfThread thread, Frame f, long ip, char level, int cpu, int order) {
        this.comm = comm;
        this.thread = thread;
        this.dso = f.dso();
        this.symbol = f.symbol();
        this.ip = ip;
        this.level = level;
        this.cpu = cpu;
        this.order = order;
        this.symbolKey = f.symbolKey();
        this.srclineFrom = null;
        this.srclineTo = null;
        this.srcline = null;
        this.srcfile = null;
    }

    /** perf's map__srcline of a branch end: its file:line, else symbol+offset, DSO[address], ??:0 without a map. */
    static String srcline(Frame f) {
        return f.map() == null ? SourceLines.UNKNOWN : srcline(f.dso(), f.symbol(), f.addr());
    }

    /** perf's map__srcline(map, ip, sym) of a DSO, or ??:0 without one. */
    static String srcline(Dso dso, Symbol sym, long ip) {
        return SourceLines.mapSrcline(dso, ip, sym);
    }

    /** perf's hist_entry__get_srcfile: the srcline's file, "" where there is none. */
    static String srcfile(Dso dso, Symbol sym, long ip) {
        if (dso == null) {
            return "";
        }
        SourceLines l = dso.sourceLines();
        return l != null ? l.srcfile(dso, ip, sym, ip, false) : "";
    }

    /** The entry's srcline (sort key srcline), made now if no comparison made it. */
    public String srcline() {
        if (srcline == null) {
            srcline = srcline(dso, symbol, ip);
        }
        return srcline;
    }

    /** The entry's srcfile (sort key srcfile), made now if no comparison made it. */
    public String srcfile() {
        if (srcfile == null) {
            srcfile = srcfile(dso, symbol, ip);
        }
        return srcfile;
    }

    /** The length perf's column width saw for {@link #srcline()} (0: not made yet then). */
    public int srclineWidth() {
        return srclineWidth;
    }

    public int srcfileWidth() {
        return srcfileWidth;
    }

    /** The source line of the branch's source as perf printed it: null where perf prints "(null)". */
    public String srclineFrom() {
        return srclineFrom;
    }

    public String srclineTo() {
        return srclineTo;
    }

    /** The length perf's column width saw for {@link #srclineFrom()} (0: not made yet then). */
    public int srclineFromWidth() {
        return srclineFromWidth;
    }

    public int srclineToWidth() {
        return srclineToWidth;
    }

    public String comm() {
        return comm;
    }

    public PerfThread thread() {
        return thread;
    }

    /** The DSO, or null (perf prints [unknown]). */
    public Dso dso() {
        return dso;
    }

    /** The symbol, or null (perf prints the address). */
    public Symbol symbol() {
        return symbol;
    }

    /** The address perf prints for an entry without symbol. */
    public long ip() {
        return ip;
    }

    public char level() {
        return level;
    }

    public int cpu() {
        return cpu;
    }

    /** Self period. */
    public long period() {
        return period;
    }

    /** The self period of samples of one CPU mode ({@code hpp} one of the cpumode fields). */
    public long period(Field.Hpp hpp) {
        return switch (hpp) {
            case OVERHEAD_SYS -> periodSys;
            case OVERHEAD_US -> periodUs;
            case OVERHEAD_GUEST_SYS -> periodGuestSys;
            case OVERHEAD_GUEST_US -> periodGuestUs;
            default -> period;
        };
    }

    /** perf's he_stat__add_cpumode_period: other modes (hypervisor, unknown) add to none. */
    void addCpumode(int cpumode, long p) {
        switch (cpumode) {
            case PerfRecord.PERF_RECORD_MISC_KERNEL -> periodSys += p;
            case PerfRecord.PERF_RECORD_MISC_USER -> periodUs += p;
            case PerfRecord.PERF_RECORD_MISC_GUEST_KERNEL -> periodGuestSys += p;
            case PerfRecord.PERF_RECORD_MISC_GUEST_USER -> periodGuestUs += p;
            default -> { }
        }
    }

    /** Children (accumulated) period; equals {@link #period()} without children mode. */
    public long periodAcc() {
        return periodAcc;
    }

    public long samples() {
        return samples;
    }

    /** Whether the sample that created the entry was excluded by --comm/--pid/--tid (not printed). */
    public boolean filtered() {
        return filtered;
    }

    /** The call graph of the entry, or null when call graphs are off (-g none). */
    public Callchain callchain() {
        return callchain;
    }

    /** What perf prints in the Symbol column. */
    public String symbolText() {
        return symbolText(Integer.MAX_VALUE);
    }

    /**
     * What perf prints in a Symbol column {@code width} wide (_hist_entry__sym_snprintf): a
     * function's name cut to the width ("%.*s" of width less "[k] "); an object's name and offset,
     * or an address, in full.
     */
    public String symbolText(int width) {
        return appendSymbolText(new StringBuilder(), level, dso, symbol, ip, width).toString();
    }

    /** {@link #symbolText(int)} appended to {@code b} (a report's rows: no string per cell). */
    public void appendSymbolText(StringBuilder b, int width) {
        appendSymbolText(b, level, dso, symbol, ip, width);
    }

    /** Branch mode: the branch's source (or target) resolved where it was taken, else null. */
    public Frame from() {
        return from;
    }

    public Frame to() {
        return to;
    }

    public int cycles() {
        return cycles;
    }

    /**
     * perf's _hist_entry__sym_snprintf of a branch end: its symbol, or its address in its map
     * (al_addr), with the level it resolved at (al_level).
     */
    public static String symbolText(Frame f, int width) {
        return appendSymbolText(new StringBuilder(), f.level(), f.dso(), f.symbol(), f.addr(), width).toString();
    }

    private static StringBuilder appendSymbolText(StringBuilder b, char level, Dso dso, Symbol symbol, long ip,
            int width) {
        int at = b.length();
        b.append('[').append(level).append("] ");
        if (symbol != null) {
            if (symbol.type() == Symbol.STT_OBJECT && dso != null) {
                b.append(symbol.name()).append("+0x").append(Long.toHexString(ip - symbol.start()));
            } else {
                String name = symbol.name();
                b.append(name, 0, Math.min(name.length(), Math.max(0, width - (b.length() - at))));
                if (symbol.inlined()) {
                    b.append(" (inlined)");
                }
            }
        } else {
            b.append(hex16(ip));
        }
        return b;
    }

    public String dsoText() {
        return dso == null ? "[unknown]" : dso.shortName();
    }

    /** printf("%#.16llx"): C prints no 0x for zero. */
    static String hex16(long v) {
        if (v == 0) {
            return "0000000000000000";
        }
        String h = Long.toHexString(v);
        return "0x" + "0".repeat(Math.max(0, 16 - h.length())) + h;
    }
}
