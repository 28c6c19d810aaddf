package dev.jperf.report.session;

/** Receives every sample of a {@link Session}, in time order, resolved. */
@FunctionalInterface
public interface SampleConsumer {
    void sample(ResolvedSample sample);
}
