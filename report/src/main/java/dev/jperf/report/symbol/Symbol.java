package dev.jperf.report.symbol;

/**
 * A named address range [start, end) of a {@link Dso}, in the DSO's own address space (file
 * offsets for user-space ELF, absolute addresses for the kernel, 0-based for a JITed BPF function).
 * Identity matters: two samples are in "the same symbol" when they resolve to the same object.
 */
public final class Symbol {
    /** ELF STT_OBJECT: perf prints data symbols as name+offset. */
    public static final int STT_OBJECT = 1;
    public static final int STT_FUNC = 2;

    private final long start;
    private long end;
    private final String name;
    private final int type;
    private final int binding;
    private final Demangler demangler;
    private final boolean inlined;
    private String shown;

    /** A symbol whose name is shown as given. */
    public Symbol(long start, long end, String name, int type, int binding) {
        this(start, end, name, type, binding, null);
    }

    /**
     * A symbol whose name is shown demangled by {@code demangler} (null: as given). Demangling
     * happens once, when the name is first asked for, so only symbols that samples hit pay for it.
     */
    public Symbol(long start, long end, String name, int type, int binding, Demangler demangler) {
        this.start = start;
        this.end = end;
        this.name = name;
        this.type = type;
        this.binding = binding;
        this.demangler = demangler;
        this.shown = demangler == null ? name : null;
        this.inlined = false;
    }

    private Symbol(Symbol base, String name, Demangler demangler) {
        this.start = base.start;
        this.end = base.end;
        this.name = name;
        this.type = base.type;
        this.binding = base.binding;
        this.demangler = demangler;
        this.shown = demangler == null ? name : null;
        this.inlined = true;
    }

    /**
     * perf's new_inline_sym: a function inlined at an address of {@code base}, named as addr2line
     * names it, with the range of the symbol it was inlined into (perf prints it with " (inlined)").
     */
    static Symbol inlined(Symbol base, String name, Demangler demangler) {
        return new Symbol(base, name, demangler);
    }

    /** Whether this is an inlined function's frame (perf's sym->inlined). */
    public boolean inlined() {
        return inlined;
    }

    public long start() {
        return start;
    }

    public long end() {
        return end;
    }

    void setEnd(long end) {
        this.end = end;
    }

    /** The name as perf prints it (demangled when this symbol came from an ELF symbol table). */
    public String name() {
        String s = shown;
        if (s == null) {
            // a race only computes the same immutable String twice
            s = demangler.demangle(name);
            shown = s;
        }
        return s;
    }

    /** ELF symbol type (STT_*). */
    public int type() {
        return type;
    }

    /** ELF symbol binding (STB_*). */
    public int binding() {
        return binding;
    }

    public boolean contains(long addr) {
        return Long.compareUnsigned(addr, start) >= 0 && (Long.compareUnsigned(addr, end) < 0 || addr == start);
    }

    @Override
    public String toString() {
        return name + "[" + Long.toHexString(start) + "-" + Long.toHexString(end) + ")";
    }
}
