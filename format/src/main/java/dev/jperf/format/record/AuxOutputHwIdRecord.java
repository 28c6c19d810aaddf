package dev.jperf.format.record;

/** PERF_RECORD_AUX_OUTPUT_HW_ID: hardware id of an AUX output event. */
public record AuxOutputHwIdRecord(long offset, int misc, int size, long hwId, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_AUX_OUTPUT_HW_ID;
    }
}
