package dev.jperf.format.record;

/** PERF_RECORD_THROTTLE / PERF_RECORD_UNTHROTTLE: the kernel stopped / resumed sampling an event (too many interrupts). */
public record ThrottleRecord(long offset, int type, int misc, int size, long time, long id, long streamId, SampleId sampleId) implements PerfRecord {

    public boolean throttle() {
        return type == RecordType.PERF_RECORD_THROTTLE;
    }
}
