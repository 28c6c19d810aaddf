package dev.jperf.format.record;

/** PERF_RECORD_LOST: the ring buffer dropped {@code lost} records of event {@code id}. */
public record LostRecord(long offset, int misc, int size, long id, long lost, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_LOST;
    }
}
