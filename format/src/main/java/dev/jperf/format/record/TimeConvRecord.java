package dev.jperf.format.record;

/** PERF_RECORD_TIME_CONV: converting TSC values to perf time (the last five fields are 0 in the short form). */
public record TimeConvRecord(long offset, int misc, int size, long timeShift, long timeMult, long timeZero, long timeCycles, long timeMask, boolean capUserTimeZero, boolean capUserTimeShort) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_TIME_CONV;
    }
}
