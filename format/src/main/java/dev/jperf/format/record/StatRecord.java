package dev.jperf.format.record;

/** PERF_RECORD_STAT: one counter reading of {@code perf stat record}. */
public record StatRecord(long offset, int misc, int size, long id, int cpu, int thread, long val, long ena, long run) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_STAT;
    }
}
