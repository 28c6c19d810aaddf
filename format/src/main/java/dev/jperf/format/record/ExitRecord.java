package dev.jperf.format.record;

/** PERF_RECORD_EXIT: a thread ended. */
public record ExitRecord(long offset, int misc, int size, int pid, int ppid, int tid, int ptid, long time, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_EXIT;
    }

    static ExitRecord decode(RecordInput r) {
        SampleId id = r.trailer();
        r.needBody(32);
        return new ExitRecord(r.offset, r.misc, r.size, r.s32(8), r.s32(12), r.s32(16), r.s32(20), r.u64(24), id);
    }
}
