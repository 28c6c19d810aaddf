package dev.jperf.recorder.stat;

import java.util.List;

/** A run's counters, however they are read: perf events per CPU/thread, or bperf followers. */
interface Counters extends AutoCloseable {
    List<StatEvent> events();

    /** Each event's values (raw, unscaled) so far; null for an unsupported one. */
    CounterValues[] read();

    /**
     * Each event's values per CPU and thread it counts on (raw, unscaled; none for an unsupported
     * one), for perf's aggregation modes: only per-CPU/thread counters have them.
     */
    default CounterValues[][] readEach() {
        throw new UnsupportedOperationException("no per-CPU or per-thread values");
    }

    /** The CPU of each of {@link #readEach}'s values of event {@code event} ({@code -1}: any). */
    default int[] cpus(int event) {
        throw new UnsupportedOperationException("no per-CPU values");
    }

    /** The thread of each of {@link #readEach}'s values of event {@code event} ({@code -1}: any). */
    default int[] threads(int event) {
        throw new UnsupportedOperationException("no per-thread values");
    }

    void enable();

    void disable();

    @Override
    void close();
}
