package dev.jperf.format.record;

/** PERF_RECORD_STAT_CONFIG: {@code perf stat record} settings (tag 0 AGGR_MODE, 1 INTERVAL, 2 SCALE). */
public record StatConfigRecord(long offset, int misc, int size, long[] tags, long[] values) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_STAT_CONFIG;
    }
    public StatConfigRecord {
        tags = tags.clone();
        values = values.clone();
    }

    @Override
    public long[] tags() {
        return tags.clone();
    }

    @Override
    public long[] values() {
        return values.clone();
    }

    static StatConfigRecord decode(RecordInput r) {
        r.need(16);
        int n = r.count(r.u64(8), r.size - 16, 16);
        long[] tags = new long[n];
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            tags[i] = r.u64(16 + 16L * i);
            values[i] = r.u64(24 + 16L * i);
        }
        return new StatConfigRecord(r.offset, r.misc, r.size, tags, values);
    }
}
