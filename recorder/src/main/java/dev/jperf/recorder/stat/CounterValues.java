package dev.jperf.recorder.stat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One counter's reading with read_format TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING (perf's
 * perf_counts_values): the count, and how long the event was enabled and actually on the PMU.
 */
public record CounterValues(long val, long ena, long run) {
    static final CounterValues ZERO = new CounterValues(0, 0, 0);

    /**
     * A per-CPU map value of struct bpf_perf_event_value (counter, enabled, running: {@link
     * BperfLeader#READING_SIZE} bytes each) summed over its {@code cpus} slots.
     */
    static CounterValues sumPerCpu(byte[] value, int cpus) {
        ByteBuffer b = ByteBuffer.wrap(value).order(ByteOrder.LITTLE_ENDIAN);
        CounterValues sum = ZERO;
        for (int cpu = 0; cpu < cpus; cpu++) {
            int at = cpu * BperfLeader.READING_SIZE;
            sum = sum.plus(new CounterValues(b.getLong(at), b.getLong(at + 8), b.getLong(at + 16)));
        }
        return sum;
    }

    CounterValues plus(CounterValues o) {
        return new CounterValues(val + o.val, ena + o.ena, run + o.run);
    }

    CounterValues minus(CounterValues o) {
        return new CounterValues(val - o.val, ena - o.ena, run - o.run);
    }

    /**
     * perf_counts_values__scale: never on the PMU is not counted (null); on it part of the time
     * (multiplexed), the count is extrapolated to the whole enabled time unless {@code scale} is
     * off (perf stat --no-scale: the count as read).
     */
    CounterValues scaled(boolean scale) {
        if (run == 0 || ena == 0) {
            return null;
        }
        if (scale && run < ena) {
            return new CounterValues((long) ((double) val * ena / run), ena, run);
        }
        return this;
    }
}
