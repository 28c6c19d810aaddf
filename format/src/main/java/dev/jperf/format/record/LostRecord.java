package dev.jperf.format.record;

/** PERF_RECORD_LOST: the ring buffer dropped {@code lost} records of event {@code id}. */
public record LostRecord(long offset, int misc, int size, long id, long lost, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_LOST;
    }

    static LostRecord decode(RecordInput r) {
        SampleId id = r.trailer();
        r.needBody(24);
        return new LostRecord(r.offset, r.misc, r.size, r.u64(8), r.u64(16), id);
    }
}
