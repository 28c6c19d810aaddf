package dev.jperf.report.aggregate;

import java.util.ArrayList;
import java.util.List;

/** perf report's --sort keys jperf knows, with perf's column headers. */
public enum SortKey {
    COMM("Command"),
    DSO("Shared Object"),
    SYM("Symbol"),
    /** perf's "pid": one row per thread, printed TID:COMM. */
    PID("    Pid:Command"),
    /** jperf's "tid": the same rows as pid (perf 6.1 has no tid key). */
    TID("    Tid:Command"),
    CPU("CPU"),
    /** perf's srcline: file:line of the entry's address (perf's fallbacks where there is none). */
    SRCLINE("Source:Line"),
    /** perf's srcfile: the file of the srcline, empty where there is none. */
    SRCFILE("Source File"),
    /** Branch mode only (perf's bstack_sort_dimensions): the branch's source DSO. */
    DSO_FROM("Source Shared Object"),
    DSO_TO("Target Shared Object"),
    SYMBOL_FROM("Source Symbol"),
    SYMBOL_TO("Target Symbol"),
    /** The basic block's cycles (the branch entry's cycles field; "-" when 0). */
    CYCLES("Basic Block Cycles"),
    /** The branch's source line as perf prints it (perf's srcline of the branch's source). */
    SRCLINE_FROM("From Source:Line"),
    SRCLINE_TO("To Source:Line"),
    /**
     * perf's ipc_lbr, appended (never given) in branch mode when --sort names a symbol_* key: the
     * target symbol's IPC from its annotation, which jperf does not make ("-").
     */
    IPC_LBR("IPC   [IPC Coverage]");

    private final String header;

    SortKey(String header) {
        this.header = header;
    }

    public String header() {
        return header;
    }

    /** A key of perf's branch mode, which sorts branches (invalid in the sample view). */
    public boolean branch() {
        return ordinal() >= DSO_FROM.ordinal();
    }

    /**
     * Parses a comma list ("comm,dso,sym") of keys named as perf names them (a key's beginning
     * will do, as in perf); an unknown key is an error naming it, as in perf, and so is one of
     * perf's output fields (overhead, sample...), which {@link Field#parse} reads.
     */
    public static List<SortKey> parse(String list) {
        List<SortKey> out = new ArrayList<>();
        for (Field f : Field.parse(list, "--sort")) {
            if (f.key() == null) {
                throw new IllegalArgumentException("--sort key `" + f.hpp().name().toLowerCase(java.util.Locale.ROOT)
                        + "': an output field, not a key here");
            }
            out.add(f.key());
        }
        return List.copyOf(out);
    }
}
