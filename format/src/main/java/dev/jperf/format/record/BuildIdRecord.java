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
}
