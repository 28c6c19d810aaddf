package dev.jperf.format.record;

/** PERF_RECORD_AUX: new data in the AUX area. */
public record AuxRecord(long offset, int misc, int size, long auxOffset, long auxSize, long flags, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_AUX;
    }
}
