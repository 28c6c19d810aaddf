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

    static CommRecord decode(RecordInput r) {
        SampleId id = r.trailer();
        r.needBody(16);
        return new CommRecord(r.offset, r.misc, r.size, r.s32(8), r.s32(12), r.cString(16, r.body() - 16), id);
    }
}
