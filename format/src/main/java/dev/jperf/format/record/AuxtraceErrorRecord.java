package dev.jperf.format.record;

/** PERF_RECORD_AUXTRACE_ERROR: a decoder error in AUX-area data. */
public record AuxtraceErrorRecord(long offset, int misc, int size, int errorType, int code, int cpu, int pid, int tid, int fmt, long ip, long time, String msg, int machinePid, int vcpu) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_AUXTRACE_ERROR;
    }

    static AuxtraceErrorRecord decode(RecordInput r) {
        r.need(48);
        String msg = r.cString(48, Math.min(64, r.size - 48));
        boolean ext = r.size >= 120;
        return new AuxtraceErrorRecord(r.offset, r.misc, r.size, r.s32(8), r.s32(12), r.s32(16), r.s32(20), r.s32(24),
                r.s32(28), r.u64(32), r.u64(40), msg, ext ? r.s32(112) : -1, ext ? r.s32(116) : -1);
    }
}
