package dev.jperf.recorder.stat;

/**
 * One line of perf stat's table.
 *
 * @param values   the (averaged, multiplex-scaled) count with its enabled and running times;
 *                 null when not counted
 * @param value    the count times the event's scale (msec for the clocks)
 * @param fraction printed with two decimals (a scale that is not a whole number)
 * @param noise    the spread over {@code -r} runs in percent; NaN for a single run
 */
record Row(String name, String unit, boolean fraction, boolean supported, CounterValues values, double value,
        double noise, Metric metric) {
    boolean counted() {
        return supported && values != null && values.run() != 0 && values.ena() != 0;
    }
}
