package dev.jperf.report.symbol;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A "dynamic shared object" as perf means it: anything samples can be attributed to (the kernel,
 * a module, an ELF file, [vdso], a JITed BPF function, a perf map). Symbols are loaded on first
 * use by the {@link SymbolResolver}; JITed BPF DSOs get theirs from KSYMBOL records.
 */
public final class Dso {
    /** What a DSO is, which decides how its symbols are found. */
    public enum Kind { KERNEL, KERNEL_MODULE, USER, VDSO, BPF, PERF_MAP, NO_DSO }

    private final String longName;
    private final String shortName;
    private final Kind kind;
    private byte[] buildId;
    private volatile SymbolTable symbols;
    private List<Symbol> dynamic;
    private final int id;
    /** The resolver's source lines (null for a DSO made without one). */
    SourceLines sourceLines;

    Dso(int id, String longName, String shortName, Kind kind) {
        this.id = id;
        this.longName = longName;
        this.shortName = shortName;
        this.kind = kind;
    }

    /** A small dense number, unique per resolver, for hashing and arrays. */
    public int id() {
        return id;
    }

    /** The path (or [kernel.kallsyms], [vdso], the BPF function name). */
    public String longName() {
        return longName;
    }

    /** What perf prints in the "Shared Object" column. */
    public String shortName() {
        return shortName;
    }

    public Kind kind() {
        return kind;
    }

    public boolean isKernelSpace() {
        return kind == Kind.KERNEL || kind == Kind.KERNEL_MODULE || kind == Kind.BPF;
    }

    /** The build-id recorded for this DSO (HEADER_BUILD_ID, MMAP2), or null. */
    public byte[] buildId() {
        return buildId;
    }

    public String buildIdHex() {
        return buildId == null ? null : HexFormat.of().formatHex(buildId);
    }

    public void setBuildId(byte[] id) {
        if (buildId == null && id != null && id.length > 0) {
            buildId = id.clone();
        }
    }

    SymbolTable symbols() {
        return symbols;
    }

    void setSymbols(SymbolTable t) {
        symbols = t;
    }

    /** Where this DSO's source lines are found ({@link SourceLines}), or null for a DSO made without a resolver. */
    public SourceLines sourceLines() {
        return sourceLines;
    }

    /** Adds a symbol known from a record (KSYMBOL), as perf's dso__insert_symbol does. */
    public synchronized void insertSymbol(Symbol s) {
        if (dynamic == null) {
            dynamic = new ArrayList<>();
        }
        dynamic.add(s);
        symbols = SymbolTable.of(dynamic);
    }

    @Override
    public String toString() {
        return longName;
    }
}
