package dev.jperf.recorder.stat;

import static dev.jperf.format.header.PerfEventAttr.*;

import dev.jperf.recorder.EventSpec;

/**
 * An event as perf stat shows it: its name, unit and scale (the software clocks count
 * nanoseconds and are shown in msec, evsel__new's evsel__is_clock), whether the machine has it,
 * and its context (perf's evsel_context: the exclude bits that make a task-clock the base of
 * another event's /sec).
 */
record StatEvent(String name, int type, long config, String unit, double scale, boolean clock, boolean supported,
        long context) {
    private static final long CONTEXT_BITS = FLAG_EXCLUDE_USER | FLAG_EXCLUDE_KERNEL | FLAG_EXCLUDE_HV
            | FLAG_EXCLUDE_HOST | FLAG_EXCLUDE_IDLE;

    static StatEvent of(EventSpec spec, boolean supported) {
        boolean clock = spec.type() == PERF_TYPE_SOFTWARE
                && (spec.config() == PERF_COUNT_SW_CPU_CLOCK || spec.config() == PERF_COUNT_SW_TASK_CLOCK);
        return new StatEvent(spec.name(), spec.type(), spec.config(), clock ? "msec" : "", clock ? 1e-6 : 1, clock,
                supported, spec.excludeFlags() & CONTEXT_BITS);
    }
}
