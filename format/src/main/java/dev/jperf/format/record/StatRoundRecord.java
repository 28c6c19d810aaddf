package dev.jperf.format.record;

/** PERF_RECORD_STAT_ROUND: end of a {@code perf stat} interval (0) or the final round (1). */
public record StatRoundRecord(long offset, int misc, int size, long roundType, long time) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_STAT_ROUND;
    }

    static StatRoundRecord decode(RecordInput r) {
        r.need(24);
        return new StatRoundRecord(r.offset, r.misc, r.size, r.u64(8), r.u64(16));
    }
}
