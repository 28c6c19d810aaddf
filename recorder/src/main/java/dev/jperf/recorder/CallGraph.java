package dev.jperf.recorder;

import static dev.jperf.format.header.PerfEventAttr.*;

import java.math.BigInteger;

/**
 * perf record's {@code -g} / {@code --call-graph record_mode[,record_size]} (perf 6.1's
 * callchain_param: record mode and DWARF stack dump size), parsed as parse_callchain_record
 * parses it, and what each mode adds to an event's attr (evsel__config_callchain).
 *
 * @param mode     how callchains are recorded
 * @param dumpSize {@code dwarf}: bytes of user stack copied into each sample (sample_stack_user)
 */
public record CallGraph(Mode mode, int dumpSize) {
    /** perf's enum perf_call_graph_mode. */
    public enum Mode {
        NONE, FP, DWARF, LBR
    }

    /** No callchains. */
    public static final CallGraph NONE = new CallGraph(Mode.NONE, 0);
    /** {@code -g}, {@code --call-graph fp}: the kernel walks frame pointers. */
    public static final CallGraph FP = new CallGraph(Mode.FP, 0);
    /** perf's default_stack_dump_size. */
    public static final int DEFAULT_DUMP_SIZE = 8192;
    /** perf's get_stack_size maximum: round_down(USHRT_MAX, sizeof(u64)). */
    public static final int MAX_DUMP_SIZE = 65528;

    /**
     * perf's parse_callchain_record: {@code fp}, {@code dwarf[,size]} or {@code lbr}, tokens split
     * as strtok splits them (empty ones skipped), the size read as strtoul reads it (0x and 0
     * prefixes, leading blanks and sign) and rounded up to 8 bytes. A bad argument throws
     * IllegalArgumentException with perf's message.
     */
    public static CallGraph parse(String arg) {
        String[] tokens = tokens(arg);
        String name = tokens.length > 0 ? tokens[0] : arg;
        switch (name) {
            case "fp":
                // perf 6.1 takes no notice of anything after fp
                return FP;
            case "dwarf":
                return new CallGraph(Mode.DWARF, tokens.length > 1 ? stackSize(tokens[1]) : DEFAULT_DUMP_SIZE);
            case "lbr":
                if (tokens.length > 1) {
                    throw new IllegalArgumentException("callchain: No more arguments needed for --call-graph lbr");
                }
                return new CallGraph(Mode.LBR, 0);
            default:
                throw new IllegalArgumentException("callchain: Unknown --call-graph option value: " + arg);
        }
    }

    /** The non-empty pieces between commas (strtok_r's tokens); a loop, not a regex split. */
    private static String[] tokens(String arg) {
        java.util.ArrayList<String> out = new java.util.ArrayList<>();
        int from = 0;
        for (int i = 0; i <= arg.length(); i++) {
            if (i == arg.length() || arg.charAt(i) == ',') {
                if (i > from) {
                    out.add(arg.substring(from, i));
                }
                from = i + 1;
            }
        }
        return out.toArray(new String[0]);
    }

    /** perf's get_stack_size. */
    private static int stackSize(String s) {
        BigInteger v = strtoul(s);
        if (v != null) {
            // unsigned long arithmetic: round_up wraps to 0 past ULONG_MAX - 7
            BigInteger rounded = v.add(BigInteger.valueOf(7)).shiftRight(3).shiftLeft(3)
                    .mod(BigInteger.ONE.shiftLeft(64));
            if (rounded.signum() != 0 && rounded.compareTo(BigInteger.valueOf(MAX_DUMP_SIZE)) <= 0) {
                return rounded.intValue();
            }
        }
        throw new IllegalArgumentException("callchain: Incorrect stack dump size (max " + MAX_DUMP_SIZE + "): " + s);
    }

    /**
     * strtoul(s, &end, 0) as an unsigned 64-bit value, or null when characters follow the number
     * (perf's {@code *endptr} check). No digits at all is 0 with the whole string left, so null
     * unless the string is empty.
     */
    private static BigInteger strtoul(String s) {
        int i = 0;
        while (i < s.length() && (s.charAt(i) == ' ' || (s.charAt(i) >= '\t' && s.charAt(i) <= '\r'))) {
            i++;
        }
        boolean negative = false;
        if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        int radix = 10;
        if (i + 1 < s.length() && s.charAt(i) == '0' && (s.charAt(i + 1) == 'x' || s.charAt(i + 1) == 'X')
                && i + 2 < s.length() && Character.digit(s.charAt(i + 2), 16) >= 0) {
            radix = 16;
            i += 2;
        } else if (i < s.length() && s.charAt(i) == '0') {
            radix = 8;
        }
        int start = i;
        while (i < s.length() && Character.digit(s.charAt(i), radix) >= 0 && s.charAt(i) < 128) {
            i++;
        }
        if (i == start) {
            return s.isEmpty() ? BigInteger.ZERO : null;
        }
        if (i != s.length()) {
            return null;
        }
        BigInteger max = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
        BigInteger v = new BigInteger(s.substring(start, i), radix);
        if (v.compareTo(max) > 0) {
            return max; // ERANGE: ULONG_MAX
        }
        return negative ? BigInteger.ONE.shiftLeft(64).subtract(v).mod(BigInteger.ONE.shiftLeft(64)) : v;
    }

    /** Whether samples carry callchains. */
    public boolean enabled() {
        return mode != Mode.NONE;
    }

    /** The sample_type bits this mode adds to every event (evsel__config's, the callchain's and sample_address's). */
    long sampleType() {
        return switch (mode) {
            case NONE -> 0;
            case FP -> PERF_SAMPLE_CALLCHAIN;
            // perf's record_opts__parse_callchain turns on sample_address for DWARF: ADDR and DATA_SRC
            case DWARF -> PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_ADDR
                    | PERF_SAMPLE_DATA_SRC;
            case LBR -> PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK;
        };
    }

    /** Whether the tracking event asks for data mmaps (perf's mmap_data = track under sample_address) and they are synthesized. */
    boolean mmapData() {
        return mode == Mode.DWARF;
    }

    /**
     * The attr fields this mode sets, written into {@code attr} (a 128-byte perf_event_attr):
     * DWARF's user registers (the minimal set when {@code userRegs}, from --user-regs, is not 0),
     * stack size and exclude_callchain_user, LBR's branch_sample_type.
     */
    void configure(java.nio.ByteBuffer attr, long userRegs) {
        if (mode == Mode.DWARF) {
            // perf's __evsel__config_callchain: with --user-regs only IP and SP are forced, the
            // subset added by evsel__config (sampling events alone)
            attr.putLong(SAMPLE_REGS_USER, userRegs != 0 ? UserRegs.dwarfMinimal() : UserRegs.mask());
            attr.putInt(SAMPLE_STACK_USER, dumpSize);
            attr.putLong(FLAGS, attr.getLong(FLAGS) | FLAG_EXCLUDE_CALLCHAIN_USER);
        } else if (mode == Mode.LBR) {
            attr.putLong(BRANCH_SAMPLE_TYPE, PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK
                    | PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES | PERF_SAMPLE_BRANCH_HW_INDEX);
        }
    }
}
