package dev.jperf.format.feature;

/** One PMU capability (a file of /sys/bus/event_source/devices/PMU/caps/). */
public record PmuCap(String name, String value) {
    /** "name=value", as perf prints it. */
    @Override
    public String toString() {
        return name + "=" + value;
    }
}
