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
}
