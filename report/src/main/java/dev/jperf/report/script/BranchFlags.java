package dev.jperf.report.script;

/**
 * The flags word of a PERF_SAMPLE_BRANCH_STACK entry (struct perf_branch_entry's bit-fields after
 * from and to) and the way perf 6.1's print_bstack_flags writes it: {@code /M|P|-/X|-/A|-/cycles/type }.
 */
final class BranchFlags {
    static final long MISPRED = 1L;
    static final long PREDICTED = 1L << 1;
    static final long IN_TX = 1L << 2;
    static final long ABORT = 1L << 3;
    static final int CYCLES_SHIFT = 4;
    static final int TYPE_SHIFT = 20;
    static final int NEW_TYPE_SHIFT = 24;
    static final int PERF_BR_UNKNOWN = 0;
    static final int PERF_BR_EXTEND_ABI = 15;

    /** util/branch.c branch_type_name, indexed by PERF_BR_* (15, PERF_BR_EXTEND_ABI, names new_type). */
    private static final String[] TYPE_NAMES = {"N/A", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL",
        "SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX", ""};
    /** util/branch.c branch_new_type_name, indexed by PERF_BR_NEW_*. */
    private static final String[] NEW_TYPE_NAMES = {"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2",
        "ARCH_3", "ARCH_4", "ARCH_5"};

    private BranchFlags() {
    }

    /** mispred_str: M, P or - when the hardware said neither. */
    static char mispred(long flags) {
        if ((flags & (MISPRED | PREDICTED)) == 0) {
            return '-';
        }
        return (flags & PREDICTED) != 0 ? 'P' : 'M';
    }

    static int cycles(long flags) {
        return (int) (flags >>> CYCLES_SHIFT) & 0xffff;
    }

    /** get_branch_type: empty for PERF_BR_UNKNOWN, the new_type's name under PERF_BR_EXTEND_ABI. */
    static String type(long flags) {
        int type = (int) (flags >>> TYPE_SHIFT) & 0xf;
        if (type == PERF_BR_UNKNOWN) {
            return "";
        }
        if (type == PERF_BR_EXTEND_ABI) {
            int n = (int) (flags >>> NEW_TYPE_SHIFT) & 0xf;
            // perf prints printf's "(null)" for a new_type it has no name for
            return n < NEW_TYPE_NAMES.length ? NEW_TYPE_NAMES[n] : "(null)";
        }
        return TYPE_NAMES[type];
    }

    /** print_bstack_flags. */
    static void print(LineWriter w, long flags) {
        w.ch('/').ch(mispred(flags)).ch('/').ch((flags & IN_TX) != 0 ? 'X' : '-').ch('/')
                .ch((flags & ABORT) != 0 ? 'A' : '-').ch('/').decRight(cycles(flags), 0).ch('/').str(type(flags))
                .ch(' ');
    }
}
