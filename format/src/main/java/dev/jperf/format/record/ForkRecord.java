package dev.jperf.format.record;

/** PERF_RECORD_FORK: a thread was created. */
public record ForkRecord(long offset, int misc, int size, int pid, int ppid, int tid, int ptid, long time, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_FORK;
    }
}
