package dev.jperf.recorder.stat;

/**
 * perf stat's aggregation modes (enum aggr_mode): one total per event ({@code GLOBAL}, the
 * default), per CPU ({@code -A}), per thread ({@code --per-thread}), per core, die, socket or NUMA
 * node ({@code --per-core} ...), with perf's layouts of the id before each row.
 */
public enum Aggr {
    GLOBAL(""),
    NONE(" CPU       "),
    THREAD("             comm-pid     "),
    CORE(" core            cpus"),
    DIE(" die          cpus"),
    SOCKET(" socket cpus"),
    NODE(" node   cpus");

    /** what the -I column header has between "time" and "counts" (print_interval) */
    final String intervalHeader;

    Aggr(String intervalHeader) {
        this.intervalHeader = intervalHeader;
    }

    /** The modes that group CPUs and print how many each row sums (aggregate-number). */
    boolean byTopology() {
        return this == CORE || this == DIE || this == SOCKET || this == NODE;
    }

    /** perf's aggr_header_lens for the id column of the table. */
    int width() {
        return switch (this) {
            case CORE -> 15;
            case DIE -> 12;
            default -> 6;
        };
    }

    /** The JSON key of the id (aggr_header_std). */
    String jsonKey() {
        return switch (this) {
            case NONE -> "cpu";
            case THREAD -> "thread";
            case CORE -> "core";
            case DIE -> "die";
            case SOCKET -> "socket";
            case NODE -> "node";
            default -> "";
        };
    }
}
