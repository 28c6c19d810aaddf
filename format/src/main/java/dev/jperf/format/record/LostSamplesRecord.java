package dev.jperf.format.record;

/** PERF_RECORD_LOST_SAMPLES: samples dropped (by the kernel, or counted by perf at the end). */
public record LostSamplesRecord(long offset, int misc, int size, long lost, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_LOST_SAMPLES;
    }

    static LostSamplesRecord decode(RecordInput r) {
        SampleId id = r.trailer();
        r.needBody(16);
        return new LostSamplesRecord(r.offset, r.misc, r.size, r.u64(8), id);
    }
}
