package dev.jperf.format.record;

/** PERF_RECORD_ITRACE_START: instruction tracing started in a task. */
public record ItraceStartRecord(long offset, int misc, int size, int pid, int tid, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_ITRACE_START;
    }
}
