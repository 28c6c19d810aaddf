package dev.jperf.format.record;

/** PERF_RECORD_FINISHED_INIT: end of the records perf synthesized at start-up. */
public record FinishedInitRecord(long offset, int misc, int size) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_FINISHED_INIT;
    }
}
