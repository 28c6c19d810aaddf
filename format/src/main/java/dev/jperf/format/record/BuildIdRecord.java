package dev.jperf.format.record;

/** PERF_RECORD_HEADER_BUILD_ID: the build id of a DSO (same layout as HEADER_BUILD_ID entries). */
public record BuildIdRecord(long offset, int misc, int size, int pid, byte[] buildId, String filename) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_HEADER_BUILD_ID;
    }
    public BuildIdRecord {
        buildId = buildId.clone();
    }

    @Override
    public byte[] buildId() {
        return buildId.clone();
    }

    static BuildIdRecord decode(RecordInput r) {
        r.need(36);
        int bidSize = (r.misc & PerfRecord.PERF_RECORD_MISC_BUILD_ID_SIZE) != 0 ? Math.min(20, r.u8(32)) : 20;
        return new BuildIdRecord(r.offset, r.misc, r.size, r.s32(8), r.bytes(12, bidSize), r.cString(36, r.size - 36));
    }
}
