package dev.jperf.format.record;

/** PERF_RECORD_HEADER_EVENT_TYPE (deprecated): a name for an event id. */
public record EventTypeRecord(long offset, int misc, int size, long eventId, String name) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_HEADER_EVENT_TYPE;
    }
}
