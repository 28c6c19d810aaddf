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

    static IdIndexRecord decode(RecordInput r) {
        r.need(16);
        int n = r.count(r.u64(8), r.size - 16, 32);
        long[] ids = new long[n];
        long[] idx = new long[n];
        long[] cpus = new long[n];
        long[] tids = new long[n];
        for (int i = 0; i < n; i++) {
            long e = 16 + 32L * i;
            ids[i] = r.u64(e);
            idx[i] = r.u64(e + 8);
            cpus[i] = r.u64(e + 16);
            tids[i] = r.u64(e + 24);
        }
        return new IdIndexRecord(r.offset, r.misc, r.size, ids, idx, cpus, tids);
    }
}
