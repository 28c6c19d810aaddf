package dev.jperf.format.record;

/** PERF_RECORD_FINISHED_ROUND: every record before this one that is older than the previous round's
 * newest one may be sorted and processed. */
public record FinishedRoundRecord(long offset, int misc, int size) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_FINISHED_ROUND;
    }
}
