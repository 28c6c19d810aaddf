package dev.jperf.recorder.stat;

/**
 * One counter's reading with read_format TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING (perf's
 * perf_counts_values): the count, and how long the event was enabled and actually on the PMU.
 */
public record CounterValues(long val, long ena, long run) {
    static final CounterValues ZERO = new CounterValues(0, 0, 0);

    CounterValues plus(CounterValues o) {
        return new CounterValues(val + o.val, ena + o.ena, run + o.run);
    }

    CounterValues minus(CounterValues o) {
        return new CounterValues(val - o.val, ena - o.ena, run - o.run);
    }

    /**
     * perf_counts_values__scale: never on the PMU is not counted (null); on it part of the time
     * (multiplexed), the count is extrapolated to the whole enabled time.
     */
    CounterValues scaled() {
        if (run == 0 || ena == 0) {
            return null;
        }
        if (run < ena) {
            return new CounterValues((long) ((double) val * ena / run), ena, run);
        }
        return this;
    }
}
