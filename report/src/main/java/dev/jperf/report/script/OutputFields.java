package dev.jperf.report.script;

import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.PerfEventAttr;
import java.util.ArrayList;
import java.util.List;

/**
 * perf script's output fields (-F): the set parsed from the option, or perf's default for
 * software/hardware events, checked against each event's sample_type as perf does.
 */
public final class OutputFields {
    /** PERF_OUTPUT_* as perf script names them on the command line, in its order. */
    public enum Field {
        COMM("comm"), TID("tid"), PID("pid"), TIME("time"), CPU("cpu"), EVNAME("event"), IP("ip"), SYM("sym"),
        DSO("dso"), SYMOFFSET("symoff"), SRCLINE("srcline"), PERIOD("period"), ADDR("addr"), IREGS("iregs"), UREGS("uregs"),
        BRSTACK("brstack"), BRSTACKSYM("brstacksym");

        private final String name;

        Field(String name) {
            this.name = name;
        }

        static Field of(String s) {
            for (Field f : values()) {
                if (f.name.equals(s)) {
                    return f;
                }
            }
            return null;
        }

        int bit() {
            return 1 << ordinal();
        }
    }

    private static final int DEFAULT = Field.COMM.bit() | Field.TID.bit() | Field.CPU.bit() | Field.TIME.bit()
            | Field.EVNAME.bit() | Field.IP.bit() | Field.SYM.bit() | Field.SYMOFFSET.bit() | Field.DSO.bit()
            | Field.PERIOD.bit();

    private final int bits;
    private final boolean userSet;

    private OutputFields(int bits, boolean userSet) {
        this.bits = bits;
        this.userSet = userSet;
    }

    /** perf's default fields for software and hardware events. */
    public static OutputFields defaults() {
        return new OutputFields(DEFAULT, false);
    }

    /**
     * Parses -F: {@code comm,tid,...} replaces the defaults; {@code +f,-g} edits them; a leading
     * {@code type:} (hw, sw, trace, raw, ...) is accepted and applies to every event here.
     */
    public static OutputFields parse(String spec) {
        String s = spec.trim();
        int colon = s.indexOf(':');
        if (colon >= 0) {
            s = s.substring(colon + 1);
        }
        if (s.isEmpty()) {
            throw new IllegalArgumentException("-F " + spec + ": no fields given");
        }
        boolean edit = s.startsWith("+") || s.startsWith("-");
        int bits = edit ? DEFAULT : 0;
        for (String part : s.split(",")) {
            String p = part.trim();
            boolean remove = false;
            if (p.startsWith("+") || p.startsWith("-")) {
                if (!edit) {
                    throw new IllegalArgumentException("-F " + spec + ": cannot mix +-field with a field list");
                }
                remove = p.startsWith("-");
                p = p.substring(1);
            } else if (edit) {
                throw new IllegalArgumentException("-F " + spec + ": cannot mix +-field with a field list");
            }
            Field f = Field.of(p);
            if (f == null) {
                throw new IllegalArgumentException("-F: invalid field requested: " + p + " (jperf script knows "
                        + names() + ")");
            }
            bits = remove ? bits & ~f.bit() : bits | f.bit();
        }
        if (has(bits, Field.SYM) && !has(bits, Field.IP) && !has(bits, Field.ADDR)) {
            throw new IllegalArgumentException("Display of symbols requested but neither sample IP nor sample address"
                    + " available. Hence, no addresses to convert to symbols.");
        }
        if (has(bits, Field.SRCLINE) && !has(bits, Field.IP)) {
            throw new IllegalArgumentException("Display of source line number requested but sample IP is not\n"
                    + "selected. Hence, no address to lookup the source line number.");
        }
        if (has(bits, Field.DSO) && !has(bits, Field.IP) && !has(bits, Field.ADDR) && !has(bits, Field.BRSTACK)
                && !has(bits, Field.BRSTACKSYM)) {
            throw new IllegalArgumentException("Display of DSO requested but no address to convert."
                    + " Select sample IP, sample address, brstack, brstacksym, or brstackoff.");
        }
        return new OutputFields(bits, !edit);
    }

    private static String names() {
        List<String> l = new ArrayList<>();
        for (Field f : Field.values()) {
            l.add(f.name);
        }
        return String.join(",", l);
    }

    private static boolean has(int bits, Field f) {
        return (bits & f.bit()) != 0;
    }

    public boolean has(Field f) {
        return has(bits, f);
    }

    /**
     * The fields of each event (by index). perf keeps one field set per event type, checked
     * against the first event of that type only (perf_session__check_output_opt).
     */
    public OutputFields[] perEvent(List<EventDesc> events) {
        OutputFields[] out = new OutputFields[events.size()];
        java.util.Map<Integer, OutputFields> byType = new java.util.HashMap<>();
        for (EventDesc e : events) {
            out[e.index()] = byType.computeIfAbsent(e.attr().type(), t -> forEvent(e));
        }
        return out;
    }

    /**
     * The fields for one event: perf drops default fields the event does not sample, and refuses
     * user-requested ones ("Samples for 'E' event do not have CPU attribute set..."). Not the
     * period: without PERF_SAMPLE_PERIOD it is the attr's fixed one, and perf prints that.
     */
    public OutputFields forEvent(EventDesc e) {
        long st = e.attr().sampleType();
        int b = bits;
        // perf_evsel__check_attr's order: the first missing one is the one perf names
        b = check(b, e, st, PerfEventAttr.PERF_SAMPLE_IP, Field.IP, "IP");
        b = check(b, e, st, PerfEventAttr.PERF_SAMPLE_ADDR, Field.ADDR, "ADDR");
        b = check(b, e, st, PerfEventAttr.PERF_SAMPLE_TIME, Field.TIME, "TIME");
        b = check(b, e, st, PerfEventAttr.PERF_SAMPLE_CPU, Field.CPU, "CPU");
        b = check(b, e, st, PerfEventAttr.PERF_SAMPLE_REGS_INTR, Field.IREGS, "IREGS");
        b = check(b, e, st, PerfEventAttr.PERF_SAMPLE_REGS_USER, Field.UREGS, "UREGS");
        if (!has(b, Field.IP) && !has(b, Field.ADDR) && !has(b, Field.BRSTACK) && !has(b, Field.BRSTACKSYM)) {
            b &= ~(Field.SYM.bit() | Field.SYMOFFSET.bit() | Field.DSO.bit());
        }
        return new OutputFields(b, userSet);
    }

    private int check(int b, EventDesc e, long sampleType, long bit, Field f, String attrName) {
        if (!has(b, f) || (sampleType & bit) != 0) {
            return b;
        }
        if (userSet) {
            throw new IllegalArgumentException("Samples for '" + e.name() + "' event do not have " + attrName
                    + " attribute set. Cannot print '" + f.name + "' field.");
        }
        return b & ~f.bit();
    }
}
