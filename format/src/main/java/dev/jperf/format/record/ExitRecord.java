package dev.jperf.format.record;

/** PERF_RECORD_EXIT: a thread ended. */
public record ExitRecord(long offset, int misc, int size, int pid, int ppid, int tid, int ptid, long time, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_EXIT;
    }
}
