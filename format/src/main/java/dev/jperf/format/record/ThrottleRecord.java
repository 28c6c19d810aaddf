package dev.jperf.format.record;

/** PERF_RECORD_THROTTLE / PERF_RECORD_UNTHROTTLE: the kernel stopped / resumed sampling an event (too many interrupts). */
public record ThrottleRecord(long offset, int type, int misc, int size, long time, long id, long streamId, SampleId sampleId) implements PerfRecord {

    public boolean throttle() {
        return type == RecordType.PERF_RECORD_THROTTLE;
    }

    /** THROTTLE and UNTHROTTLE. */
    static ThrottleRecord decode(RecordInput r) {
        SampleId id = r.trailer();
        r.needBody(32);
        return new ThrottleRecord(r.offset, r.type, r.misc, r.size, r.u64(8), r.u64(16), r.u64(24), id);
    }
}
