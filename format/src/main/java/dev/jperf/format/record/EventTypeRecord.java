package dev.jperf.format.record;

/** PERF_RECORD_HEADER_EVENT_TYPE (deprecated): a name for an event id. */
public record EventTypeRecord(long offset, int misc, int size, long eventId, String name) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_HEADER_EVENT_TYPE;
    }

    static EventTypeRecord decode(RecordInput r) {
        r.need(16);
        return new EventTypeRecord(r.offset, r.misc, r.size, r.u64(8), r.cString(16, Math.min(64, r.size - 16)));
    }
}
