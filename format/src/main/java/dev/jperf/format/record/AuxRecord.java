package dev.jperf.format.record;

/** PERF_RECORD_AUX: new data in the AUX area. */
public record AuxRecord(long offset, int misc, int size, long auxOffset, long auxSize, long flags, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_AUX;
    }

    static AuxRecord decode(RecordInput r) {
        SampleId id = r.trailer();
        r.needBody(32);
        return new AuxRecord(r.offset, r.misc, r.size, r.u64(8), r.u64(16), r.u64(24), id);
    }
}
