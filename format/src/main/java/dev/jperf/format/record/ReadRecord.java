package dev.jperf.format.record;

/** PERF_RECORD_READ: counter values of a task (inherit_stat). */
public record ReadRecord(long offset, int misc, int size, int pid, int tid, ReadValues values, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_READ;
    }
}
