package dev.jperf.report.session;

import dev.jperf.format.record.PerfRecord;

/** Receives every sample of a {@link Session}, in time order, resolved. */
@FunctionalInterface
public interface SampleConsumer {
    void sample(ResolvedSample sample);

    /**
     * Every other kernel record (MMAP, COMM, FORK, EXIT, KSYMBOL, BPF_EVENT, ...), in the same
     * time order, after the machine state took it in (what perf script's --show-*-events print).
     */
    default void sideBand(PerfRecord record) {
    }
}
