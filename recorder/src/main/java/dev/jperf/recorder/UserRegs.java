package dev.jperf.recorder;

/**
 * The user registers a sample can carry (PERF_SAMPLE_REGS_USER), as perf 6.1 names and selects
 * them: {@code --user-regs[=names]} (parse_user_regs over arch/x86's sample_reg_masks, limited to
 * arch__user_reg_mask) and the set {@code --call-graph dwarf} asks for.
 */
public final class UserRegs {
    /** perf_event_x86_regs in bit order; DS, ES, FS and GS (bits 12-15) are not user registers to perf. */
    private static final String[] X86_NAMES = {"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS",
        "SS", "DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15"};
    /** perf's DWARF_MINIMAL_REGS on x86: IP and SP. */
    private static final long X86_DWARF_MINIMAL = (1L << 8) | (1L << 7);

    private UserRegs() {
    }

    private static boolean x86() {
        String arch = System.getProperty("os.arch");
        return arch.equals("amd64") || arch.equals("x86_64");
    }

    /**
     * perf's PERF_REGS_MASK for this machine (arch__user_reg_mask): every user register its DWARF
     * unwinder reads. On x86-64 ax..r15 without the segment registers ds, es, fs and gs; on arm64
     * x0..x30, sp and pc.
     */
    static long mask() {
        if (x86()) {
            return 0xff0fffL;
        }
        if (System.getProperty("os.arch").equals("aarch64")) {
            return (1L << 33) - 1;
        }
        throw new RecordException("the user registers of " + System.getProperty("os.arch") + " are not known to jperf");
    }

    /** perf's DWARF_MINIMAL_REGS: what --call-graph dwarf forces when --user-regs chose a subset. */
    static long dwarfMinimal() {
        return x86() ? X86_DWARF_MINIMAL : (1L << 31) | (1L << 32); // arm64: sp, pc
    }

    /**
     * perf's parse_user_regs: comma-separated register names, any case, each one perf lists for
     * this machine; null ({@code --user-regs} alone) is all of them. {@code ?} lists the names.
     * A bad list throws IllegalArgumentException with perf's message.
     */
    public static long parse(String list) {
        return parse(list, "--user-regs", "--user-regs=?");
    }

    /**
     * As {@link #parse(String)}, for {@code option} ({@code --user-regs}, {@code --intr-regs}), whose
     * listing perf's message names as {@code listing} ({@code --user-regs=?}, {@code -I?}).
     */
    public static long parse(String list, String option, String listing) {
        long mask = mask();
        if (!x86()) {
            throw new IllegalArgumentException(option + ": jperf knows the register names of x86-64 only");
        }
        if (list == null) {
            return mask;
        }
        long selected = 0;
        int from = 0;
        while (true) {
            int comma = list.indexOf(',', from);
            String name = comma < 0 ? list.substring(from) : list.substring(from, comma);
            if (name.equals("?")) {
                StringBuilder b = new StringBuilder("available registers: ");
                for (int i = 0; i < X86_NAMES.length; i++) {
                    if ((mask & (1L << i)) != 0) {
                        b.append(X86_NAMES[i]).append(' ');
                    }
                }
                throw new IllegalArgumentException(b.toString());
            }
            int bit = -1;
            for (int i = 0; i < X86_NAMES.length; i++) {
                if ((mask & (1L << i)) != 0 && X86_NAMES[i].equalsIgnoreCase(name)) {
                    bit = i;
                }
            }
            if (bit < 0) {
                throw new IllegalArgumentException("Unknown register \"" + name
                        + "\", check man page or run \"jperf record " + listing + "\"");
            }
            selected |= 1L << bit;
            if (comma < 0) {
                return selected;
            }
            from = comma + 1;
        }
    }
}
