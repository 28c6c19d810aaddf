package dev.jperf.recorder;

/**
 * {@code -b/--branch-any} and {@code -j/--branch-filter}: perf 6.1's parse_branch_str
 * (util/parse-branch-options.c), its filter names and rules, into a branch_sample_type.
 */
public final class BranchFilter {
    /** perf's branch_modes, in its order; each name's bit is its PERF_SAMPLE_BRANCH_* shift. */
    private static final String[] NAMES = {"u", "k", "hv", "any", "any_call", "any_ret", "ind_call", "abort_tx",
        "in_tx", "no_tx", "cond", "ind_jmp", "call", "save_type", "stack", "priv"};
    private static final int[] BITS = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 16, 11, 18};
    /** PERF_SAMPLE_BRANCH_USER, _KERNEL, _HV: perf's ONLY_PLM. */
    private static final long ONLY_PLM = 0x7;
    /** PERF_SAMPLE_BRANCH_ANY: -b, and a filter of privilege levels alone. */
    public static final long ANY = 1L << 3;

    private BranchFilter() {
    }

    /**
     * The branch_sample_type of a comma-separated list of perf's names (any case); null is -b's
     * {@link #ANY}. A list of privilege levels alone becomes ANY, as perf makes it. A name perf does
     * not know throws IllegalArgumentException with perf's message.
     */
    public static long parse(String list) {
        if (list == null) {
            return ANY;
        }
        long mode = 0;
        int from = 0;
        while (true) {
            int comma = list.indexOf(',', from);
            String name = comma < 0 ? list.substring(from) : list.substring(from, comma);
            int bit = -1;
            for (int i = 0; i < NAMES.length && bit < 0; i++) {
                if (NAMES[i].equalsIgnoreCase(name)) {
                    bit = BITS[i];
                }
            }
            if (bit < 0) {
                throw new IllegalArgumentException("unknown branch filter " + name + ", check man page");
            }
            mode |= 1L << bit;
            if (comma < 0) {
                break;
            }
            from = comma + 1;
        }
        // perf: "default to any branch", the privilege levels given replaced too
        return (mode & ~ONLY_PLM) == 0 ? ANY : mode;
    }
}
