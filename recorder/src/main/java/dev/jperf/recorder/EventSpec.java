package dev.jperf.recorder;

import static dev.jperf.nativeshim.PerfEventAttrLayout.*;

import java.util.Locale;
import java.util.Map;

/**
 * An event as perf spells it ({@code cycles}, {@code cpu-clock}, {@code task-clock:u}, ...):
 * perf_event_attr type and config plus the modifier's exclude bits.
 */
public record EventSpec(String name, int type, long config, long excludeFlags, int preciseIp) {

    private static final Map<String, long[]> NAMES = Map.ofEntries(
            hw("cycles", PERF_COUNT_HW_CPU_CYCLES), hw("cpu-cycles", PERF_COUNT_HW_CPU_CYCLES),
            hw("instructions", PERF_COUNT_HW_INSTRUCTIONS),
            hw("cache-references", PERF_COUNT_HW_CACHE_REFERENCES), hw("cache-misses", PERF_COUNT_HW_CACHE_MISSES),
            hw("branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS), hw("branch-instructions", PERF_COUNT_HW_BRANCH_INSTRUCTIONS),
            hw("branch-misses", PERF_COUNT_HW_BRANCH_MISSES), hw("bus-cycles", PERF_COUNT_HW_BUS_CYCLES),
            hw("stalled-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND),
            hw("idle-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND),
            hw("stalled-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND),
            hw("idle-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND),
            hw("ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES),
            sw("cpu-clock", PERF_COUNT_SW_CPU_CLOCK), sw("task-clock", PERF_COUNT_SW_TASK_CLOCK),
            sw("page-faults", PERF_COUNT_SW_PAGE_FAULTS), sw("faults", PERF_COUNT_SW_PAGE_FAULTS),
            sw("context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES), sw("cs", PERF_COUNT_SW_CONTEXT_SWITCHES),
            sw("cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS), sw("migrations", PERF_COUNT_SW_CPU_MIGRATIONS),
            sw("minor-faults", PERF_COUNT_SW_PAGE_FAULTS_MIN), sw("major-faults", PERF_COUNT_SW_PAGE_FAULTS_MAJ),
            sw("alignment-faults", PERF_COUNT_SW_ALIGNMENT_FAULTS), sw("emulation-faults", PERF_COUNT_SW_EMULATION_FAULTS),
            sw("dummy", PERF_COUNT_SW_DUMMY), sw("bpf-output", PERF_COUNT_SW_BPF_OUTPUT),
            sw("cgroup-switches", PERF_COUNT_SW_CGROUP_SWITCHES));

    private static Map.Entry<String, long[]> hw(String name, int config) {
        return Map.entry(name, new long[] {PERF_TYPE_HARDWARE, config});
    }

    private static Map.Entry<String, long[]> sw(String name, int config) {
        return Map.entry(name, new long[] {PERF_TYPE_SOFTWARE, config});
    }

    /** perf's default event. */
    public static final String DEFAULT = "cycles";

    /**
     * Parses {@code name[:modifiers]} (modifiers u, k, h, p, P as in perf); an unknown name or
     * modifier is an {@link IllegalArgumentException} naming it.
     */
    public static EventSpec parse(String spec) {
        String s = spec.strip();
        int colon = s.indexOf(':');
        String base = (colon < 0 ? s : s.substring(0, colon)).toLowerCase(Locale.ROOT);
        long[] tc = NAMES.get(base);
        if (tc == null) {
            throw new IllegalArgumentException("unknown event '" + spec + "' (known: software events such as cpu-clock, "
                    + "task-clock, page-faults, context-switches; hardware events such as cycles, instructions)");
        }
        long exclude = 0;
        int precise = 0;
        if (colon >= 0) {
            boolean u = false;
            boolean k = false;
            boolean h = false;
            for (char c : s.substring(colon + 1).toCharArray()) {
                switch (c) {
                    case 'u' -> u = true;
                    case 'k' -> k = true;
                    case 'h' -> h = true;
                    case 'p' -> precise = Math.min(3, precise + 1);
                    case 'P' -> precise = 3;
                    default -> throw new IllegalArgumentException("unknown modifier '" + c + "' in event '" + spec + "'");
                }
            }
            if (u || k || h) {
                exclude = (u ? 0 : FLAG_EXCLUDE_USER) | (k ? 0 : FLAG_EXCLUDE_KERNEL) | (h ? 0 : FLAG_EXCLUDE_HV);
            }
        }
        return new EventSpec(s, (int) tc[0], tc[1], exclude, precise);
    }

    /** The software event perf falls back to when the PMU lacks a hardware one. */
    public EventSpec softwareFallback() {
        if (type == PERF_TYPE_HARDWARE && (config == PERF_COUNT_HW_CPU_CYCLES || config == PERF_COUNT_HW_REF_CPU_CYCLES)) {
            String mods = name.contains(":") ? name.substring(name.indexOf(':')) : "";
            return new EventSpec("cpu-clock" + mods.replace("p", "").replace("P", "").replaceAll(":$", ""),
                    PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, excludeFlags, 0);
        }
        return null;
    }
}
