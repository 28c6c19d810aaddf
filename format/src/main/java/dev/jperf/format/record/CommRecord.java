package dev.jperf.format.record;

/** PERF_RECORD_COMM: a thread's name; {@link #exec()} when the change came from exec. */
public record CommRecord(long offset, int misc, int size, int pid, int tid, String comm, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_COMM;
    }

    /** PERF_RECORD_MISC_COMM_EXEC: the name changed because of exec. */
    public boolean exec() {
        return (misc & PerfRecord.PERF_RECORD_MISC_COMM_EXEC) != 0;
    }
}
