package dev.jperf.format.record;

/** PERF_RECORD_ID_INDEX: for each event id, the evsel index, CPU and thread it was opened for. */
public record IdIndexRecord(long offset, int misc, int size, long[] ids, long[] idx, long[] cpus, long[] tids) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_ID_INDEX;
    }
    public IdIndexRecord {
        ids = ids.clone();
        idx = idx.clone();
        cpus = cpus.clone();
        tids = tids.clone();
    }

    @Override
    public long[] ids() {
        return ids.clone();
    }

    @Override
    public long[] idx() {
        return idx.clone();
    }

    @Override
    public long[] cpus() {
        return cpus.clone();
    }

    @Override
    public long[] tids() {
        return tids.clone();
    }
}
