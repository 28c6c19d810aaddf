package dev.jperf.recorder.stat;

import java.util.List;

/** A run's counters, however they are read: perf events per CPU/thread, or bperf followers. */
interface Counters extends AutoCloseable {
    List<StatEvent> events();

    /** Each event's values (raw, unscaled) so far; null for an unsupported one. */
    CounterValues[] read();

    void enable();

    void disable();

    @Override
    void close();
}
