package dev.jperf.format.record;

/** PERF_RECORD_AUXTRACE_INFO: which AUX-area tracer (Intel PT, ARM SPE...) and its private data. */
public record AuxtraceInfoRecord(long offset, int misc, int size, int auxtraceType, long[] priv) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_AUXTRACE_INFO;
    }
    public AuxtraceInfoRecord {
        priv = priv.clone();
    }

    @Override
    public long[] priv() {
        return priv.clone();
    }

    static AuxtraceInfoRecord decode(RecordInput r) {
        r.need(16);
        return new AuxtraceInfoRecord(r.offset, r.misc, r.size, r.s32(8), r.u64s(16, (r.size - 16) / 8));
    }
}
