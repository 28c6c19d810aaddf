package dev.jperf.report.header;

import static dev.jperf.format.header.PerfEventAttr.*;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.io.ByteSource;

/**
 * perf_event_attr__fprintf of perf 6.1 (util/perf_event_attr_fprintf.c): every non-zero field in
 * struct order, with perf's names for the bit masks, written in the caller's style: the header's
 * {@code , name = value} or evlist's {@code : name: value, name: value}.
 */
final class AttrFormat {
    private AttrFormat() {
    }

    private static final String[] SAMPLE_TYPE_NAMES = {
        "IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU", "PERIOD", "STREAM_ID", "RAW",
        "BRANCH_STACK", "REGS_USER", "STACK_USER", "IDENTIFIER", "REGS_INTR", "DATA_SRC", "WEIGHT",
        "PHYS_ADDR", "AUX", "CGROUP", "DATA_PAGE_SIZE", "CODE_PAGE_SIZE", "WEIGHT_STRUCT"};
    // the bits of the names above (perf's table order is not bit order; TRANSACTION is not printed)
    private static final long[] SAMPLE_TYPE_BITS = {
        PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR, PERF_SAMPLE_READ, PERF_SAMPLE_CALLCHAIN,
        PERF_SAMPLE_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_RAW,
        PERF_SAMPLE_BRANCH_STACK, PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER, PERF_SAMPLE_IDENTIFIER,
        PERF_SAMPLE_REGS_INTR, PERF_SAMPLE_DATA_SRC, PERF_SAMPLE_WEIGHT, PERF_SAMPLE_PHYS_ADDR, PERF_SAMPLE_AUX,
        PERF_SAMPLE_CGROUP, PERF_SAMPLE_DATA_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE, PERF_SAMPLE_WEIGHT_STRUCT};
    private static final String[] BRANCH_NAMES = {
        "USER", "KERNEL", "HV", "ANY", "ANY_CALL", "ANY_RETURN", "IND_CALL", "ABORT_TX", "IN_TX", "NO_TX",
        "COND", "CALL_STACK", "IND_JUMP", "CALL", "NO_FLAGS", "NO_CYCLES", "TYPE_SAVE", "HW_INDEX"};
    private static final String[] READ_FORMAT_NAMES = {
        "TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST"};
    /** Names of the single-bit flags of the word at FLAGS, by bit; precise_ip (bits 15-16) is handled apart. */
    private static final String[] FLAG_NAMES = {
        "disabled", "inherit", "pinned", "exclusive", "exclude_user", "exclude_kernel", "exclude_hv",
        "exclude_idle", "mmap", "comm", "freq", "inherit_stat", "enable_on_exec", "task", "watermark",
        "precise_ip", null, "mmap_data", "sample_id_all", "exclude_host", "exclude_guest",
        "exclude_callchain_kernel", "exclude_callchain_user", "mmap2", "comm_exec", "use_clockid",
        "context_switch", "write_backward", "namespaces", "ksymbol", "bpf_event", "aux_output", "cgroup",
        "text_poke", "build_id", "inherit_thread", "remove_on_exec", "sigtrap"};

    /** How the items are joined: what precedes the first and the others, and what joins a name to its value. */
    record Style(String first, String next, String assign) {
        /** The header's event lines (print_event_desc): {@code , name = value} each. */
        static final Style HEADER = new Style(", ", ", ", " = ");
        /** perf evlist -v (__print_attr__fprintf through comma_fprintf): {@code : name: value, name: value}. */
        static final Style EVLIST = new Style(": ", ", ", ": ");
    }

    /** The attr's own size field, which perf prints (it may differ from the file's attr size). */
    static long ownSize(PerfDataFile file, PerfEventAttr a) {
        return ByteSource.wrap(file.name(), a.raw()).withOrder(file.header().order()).u32(4);
    }

    /** The attribute list in the header's style; {@code size} is the attr's own size field. */
    static String format(PerfEventAttr a, long size) {
        return format(a, size, Style.HEADER);
    }

    /** The attribute list in {@code style}; {@code size} is the attr's own size field. */
    static String format(PerfEventAttr a, long size, Style style) {
        Items sb = new Items(style);
        unsigned(sb, "type", Integer.toUnsignedLong(a.type()));
        unsigned(sb, "size", size);
        hex(sb, "config", a.config());
        unsigned(sb, "{ sample_period, sample_freq }", a.samplePeriod());
        if (a.sampleType() != 0) {
            item(sb, "sample_type", bits(a.sampleType(), SAMPLE_TYPE_NAMES, SAMPLE_TYPE_BITS));
        }
        if (a.readFormat() != 0) {
            item(sb, "read_format", bits(a.readFormat(), READ_FORMAT_NAMES, null));
        }
        long flags = a.flags();
        for (int bit = 0; bit < FLAG_NAMES.length; bit++) {
            if (bit == PRECISE_IP_SHIFT) {
                unsigned(sb, "precise_ip", a.preciseIp());
            } else if (FLAG_NAMES[bit] != null) {
                unsigned(sb, FLAG_NAMES[bit], (flags >>> bit) & 1);
            }
        }
        unsigned(sb, "{ wakeup_events, wakeup_watermark }", Integer.toUnsignedLong(a.wakeupEvents()));
        unsigned(sb, "bp_type", Integer.toUnsignedLong(a.bpType()));
        hex(sb, "{ bp_addr, config1 }", a.config1());
        hex(sb, "{ bp_len, config2 }", a.config2());
        if (a.branchSampleType() != 0) {
            item(sb, "branch_sample_type", bits(a.branchSampleType(), BRANCH_NAMES, null));
        }
        hex(sb, "sample_regs_user", a.sampleRegsUser());
        unsigned(sb, "sample_stack_user", Integer.toUnsignedLong(a.sampleStackUser()));
        if (a.clockid() != 0) {
            item(sb, "clockid", Integer.toString(a.clockid()));
        }
        hex(sb, "sample_regs_intr", a.sampleRegsIntr());
        unsigned(sb, "aux_watermark", Integer.toUnsignedLong(a.auxWatermark()));
        unsigned(sb, "sample_max_stack", a.sampleMaxStack());
        unsigned(sb, "aux_sample_size", Integer.toUnsignedLong(a.auxSampleSize()));
        unsigned(sb, "sig_data", a.sigData());
        return sb.out.toString();
    }

    /** The items written so far, in a style. */
    private static final class Items {
        final Style style;
        final StringBuilder out = new StringBuilder();

        Items(Style style) {
            this.style = style;
        }
    }

    private static void item(Items sb, String name, String value) {
        sb.out.append(sb.out.length() == 0 ? sb.style.first() : sb.style.next()).append(name).append(sb.style.assign()).append(value);
    }

    private static void unsigned(Items sb, String name, long v) {
        if (v != 0) {
            item(sb, name, Long.toUnsignedString(v));
        }
    }

    private static void hex(Items sb, String name, long v) {
        if (v != 0) {
            item(sb, name, "0x" + Long.toHexString(v));
        }
    }

    /**
     * perf's __p_bits: the names of the set bits joined by '|', in table order; unknown bits are not
     * shown. {@code names[i]} is bit i, or {@code masks[i]} when given.
     */
    private static String bits(long value, String[] names, long[] masks) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < names.length; i++) {
            long mask = masks == null ? 1L << i : masks[i];
            if ((value & mask) != 0) {
                if (sb.length() > 0) {
                    sb.append('|');
                }
                sb.append(names[i]);
            }
        }
        return sb.toString();
    }
}
