package dev.jperf.report.aggregate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One of perf report's fields, as {@code -F/--fields} and {@code -s/--sort} name them: a column of
 * numbers (perf's hpp dimensions: overhead, sample, period...) or a sort key.
 *
 * @param hpp the column of numbers, or null
 * @param key the sort key, or null
 */
public record Field(Hpp hpp, SortKey key) {
    /** perf's hpp_sort_dimensions jperf computes, with perf's headers and widths. */
    public enum Hpp {
        OVERHEAD("Overhead", 8),
        /** The self period of kernel-mode samples (perf's period_sys), as a share of the total. */
        OVERHEAD_SYS("sys", 8),
        /** The self period of user-mode samples (period_us). */
        OVERHEAD_US("usr", 8),
        OVERHEAD_GUEST_SYS("guest sys", 9),
        OVERHEAD_GUEST_US("guest usr", 9),
        OVERHEAD_CHILDREN("Children", 8),
        SAMPLE("Samples", 12),
        PERIOD("Period", 12);

        private final String header;
        private final int width;

        Hpp(String header, int width) {
            this.header = header;
            this.width = width;
        }

        public String header() {
            return header;
        }

        public int width() {
            return width;
        }

        /** Whether the column is a percentage (" %6.2f%%"), not a count. */
        public boolean percent() {
            return this != SAMPLE && this != PERIOD;
        }

        /** A share of one CPU mode's period (perf's he_stat__add_cpumode_period). */
        public boolean cpumode() {
            return this == OVERHEAD_SYS || this == OVERHEAD_US || this == OVERHEAD_GUEST_SYS || this == OVERHEAD_GUEST_US;
        }
    }

    /**
     * perf 6.1's names, in the order sort_dimension__add and output_field_add search them: the
     * common sort dimensions, the hpp ones, the branch stack's, the memory mode's. A name given is
     * the first whose beginning it is (strncasecmp over the given length).
     */
    private static final String[] COMMON = {"pid", "comm", "dso", "symbol", "parent", "cpu", "socket", "srcline", "srcfile",
        "local_weight", "weight", "transaction", "trace", "symbol_size", "dso_size", "cgroup", "cgroup_id", "ipc_null",
        "time", "code_page_size", "local_ins_lat", "ins_lat", "local_p_stage_cyc", "p_stage_cyc", "addr"};
    private static final String[] HPP = {"overhead", "overhead_sys", "overhead_us", "overhead_guest_sys",
        "overhead_guest_us", "overhead_children", "sample", "period"};
    private static final String[] BSTACK = {"dso_from", "dso_to", "symbol_from", "symbol_to", "mispredict", "abort",
        "in_tx", "cycles", "srcline_from", "srcline_to", "ipc_lbr", "addr_from", "addr_to"};
    private static final String[] MEMORY = {"symbol_daddr", "dso_daddr", "locked", "tlb", "mem", "snoop", "dcacheline",
        "symbol_iaddr", "phys_daddr", "data_page_size", "blocked"};

    public static Field of(SortKey key) {
        return new Field(null, key);
    }

    public static Field of(Hpp hpp) {
        return new Field(hpp, null);
    }

    /** The header of the column. */
    public String header() {
        return hpp != null ? hpp.header() : key.header();
    }

    /**
     * A comma (or space) separated list of fields as perf's setup_sort_list / setup_output_list
     * read it, each field once; {@code option} ("--sort", "--fields") names the list in errors,
     * which are perf's ("Unknown --sort key: `x'") or say what jperf does not compute.
     */
    public static List<Field> parse(String list, String option) {
        List<Field> out = new ArrayList<>();
        for (String t : list.split("[, ]")) {
            if (t.isEmpty()) {
                continue;
            }
            Field f = find(t, option);
            if (!out.contains(f)) {
                out.add(f);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no " + option + " key given");
        }
        return List.copyOf(out);
    }

    private static Field find(String token, String option) {
        // jperf's own key (perf 6.1 has none by that name): matched whole
        if (token.equalsIgnoreCase("tid")) {
            return of(SortKey.TID);
        }
        String name = first(token, COMMON);
        if (name == null) {
            name = first(token, HPP);
            if (name != null) {
                for (Hpp h : Hpp.values()) {
                    if (h.name().equalsIgnoreCase(name)) {
                        return of(h);
                    }
                }
                throw unsupported(option, name);
            }
            name = first(token, BSTACK);
        }
        if (name == null) {
            if (first(token, MEMORY) != null) {
                // perf's -EINVAL outside its memory mode (report --mem-mode), which jperf has not
                throw new IllegalArgumentException("Invalid " + option + " key: `" + token + "'");
            }
            throw new IllegalArgumentException("Unknown " + option + " key: `" + token + "'");
        }
        String enumName = name.equals("symbol") ? "SYM" : name.toUpperCase(Locale.ROOT);
        for (SortKey k : SortKey.values()) {
            // ipc_lbr is appended by report itself in branch mode, never taken from the list
            if (k != SortKey.IPC_LBR && k.name().equals(enumName)) {
                return of(k);
            }
        }
        throw unsupported(option, name);
    }

    private static IllegalArgumentException unsupported(String option, String name) {
        return new IllegalArgumentException(option + " key `" + name + "': perf's, not computed by jperf yet");
    }

    /** The first of {@code names} that {@code token} begins (perf's strncasecmp(tok, name, strlen(tok))). */
    private static String first(String token, String[] names) {
        for (String n : names) {
            if (n.length() >= token.length() && n.regionMatches(true, 0, token, 0, token.length())) {
                return n;
            }
        }
        return null;
    }
}
