package dev.jperf.format.record;

/** PERF_RECORD_CGROUP: a cgroup id and its path. */
public record CgroupRecord(long offset, int misc, int size, long id, String path, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_CGROUP;
    }
}
