package dev.jperf.format.record;

import dev.jperf.format.header.EventDesc;

/**
 * The sample_id trailer of a non-SAMPLE record (attr.sample_id_all), and the event the record
 * belongs to. Fields the event does not sample are {@code -1}, as in perf.
 *
 * @param event the event (evsel) the record was mapped to; null when unknown
 */
public record SampleId(int pid, int tid, long time, long id, long streamId, int cpu, EventDesc event) {
    /** No trailer. */
    public static final SampleId NONE = new SampleId(-1, -1, -1, -1, -1, -1, null);

    public boolean present() {
        return this != NONE;
    }
}
