package dev.jperf.format.record;

/** PERF_RECORD_TIME_CONV: converting TSC values to perf time (the last five fields are 0 in the short form). */
public record TimeConvRecord(long offset, int misc, int size, long timeShift, long timeMult, long timeZero, long timeCycles, long timeMask, boolean capUserTimeZero, boolean capUserTimeShort) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_TIME_CONV;
    }

    static TimeConvRecord decode(RecordInput r) {
        r.need(32);
        boolean ext = r.size >= 56;
        return new TimeConvRecord(r.offset, r.misc, r.size, r.u64(8), r.u64(16), r.u64(24), ext ? r.u64(32) : 0,
                ext ? r.u64(40) : 0, ext && r.u8(48) != 0, ext && r.u8(49) != 0);
    }
}
