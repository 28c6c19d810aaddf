package dev.jperf.format.record;

/** PERF_RECORD_AUX_OUTPUT_HW_ID: hardware id of an AUX output event. */
public record AuxOutputHwIdRecord(long offset, int misc, int size, long hwId, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_AUX_OUTPUT_HW_ID;
    }

    static AuxOutputHwIdRecord decode(RecordInput r) {
        SampleId id = r.trailer();
        r.needBody(16);
        return new AuxOutputHwIdRecord(r.offset, r.misc, r.size, r.u64(8), id);
    }
}
