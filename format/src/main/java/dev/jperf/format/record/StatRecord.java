package dev.jperf.format.record;

/** PERF_RECORD_STAT: one counter reading of {@code perf stat record}. */
public record StatRecord(long offset, int misc, int size, long id, int cpu, int thread, long val, long ena, long run) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_STAT;
    }

    static StatRecord decode(RecordInput r) {
        r.need(48);
        return new StatRecord(r.offset, r.misc, r.size, r.u64(8), r.s32(16), r.s32(20), r.u64(24), r.u64(32), r.u64(40));
    }
}
