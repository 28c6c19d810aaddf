package dev.jperf.format.record;

/** PERF_RECORD_AUXTRACE_ERROR: a decoder error in AUX-area data. */
public record AuxtraceErrorRecord(long offset, int misc, int size, int errorType, int code, int cpu, int pid, int tid, int fmt, long ip, long time, String msg, int machinePid, int vcpu) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_AUXTRACE_ERROR;
    }
}
