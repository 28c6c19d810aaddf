package dev.jperf.report.session;

/**
 * Receives every sample of a {@link Session}, in time order, resolved, without an object per
 * sample: the {@link CurrentSample} is reused and valid only during the call.
 */
@FunctionalInterface
public interface SampleSink {
    void sample(CurrentSample sample);
}
