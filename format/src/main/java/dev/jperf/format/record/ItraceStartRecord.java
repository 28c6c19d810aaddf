package dev.jperf.format.record;

/** PERF_RECORD_ITRACE_START: instruction tracing started in a task. */
public record ItraceStartRecord(long offset, int misc, int size, int pid, int tid, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_ITRACE_START;
    }

    static ItraceStartRecord decode(RecordInput r) {
        SampleId id = r.trailer();
        r.needBody(16);
        return new ItraceStartRecord(r.offset, r.misc, r.size, r.s32(8), r.s32(12), id);
    }
}
