package dev.jperf.format.record;

/** PERF_RECORD_CGROUP: a cgroup id and its path. */
public record CgroupRecord(long offset, int misc, int size, long id, String path, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_CGROUP;
    }

    static CgroupRecord decode(RecordInput r) {
        SampleId id = r.trailer();
        r.needBody(16);
        return new CgroupRecord(r.offset, r.misc, r.size, r.u64(8), r.cString(16, r.body() - 16), id);
    }
}
