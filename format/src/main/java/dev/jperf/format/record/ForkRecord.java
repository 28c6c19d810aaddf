package dev.jperf.format.record;

/** PERF_RECORD_FORK: a thread was created. */
public record ForkRecord(long offset, int misc, int size, int pid, int ppid, int tid, int ptid, long time, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_FORK;
    }

    static ForkRecord decode(RecordInput r) {
        SampleId id = r.trailer();
        r.needBody(32);
        return new ForkRecord(r.offset, r.misc, r.size, r.s32(8), r.s32(12), r.s32(16), r.s32(20), r.u64(24), id);
    }
}
