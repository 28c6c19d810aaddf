package dev.jperf.format.record;

/** PERF_RECORD_EVENT_UPDATE: a late fact about event {@code id}: its unit or name ({@link #text()}),
 * scale, or CPUs, by {@code updateType}. */
public record EventUpdateRecord(long offset, int misc, int size, long updateType, long id, String text, double scale, int[] cpus) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_EVENT_UPDATE;
    }
    public static final int PERF_EVENT_UPDATE__UNIT = 0;
    public static final int PERF_EVENT_UPDATE__SCALE = 1;
    public static final int PERF_EVENT_UPDATE__NAME = 2;
    public static final int PERF_EVENT_UPDATE__CPUS = 3;

    public EventUpdateRecord {
        cpus = cpus == null ? null : cpus.clone();
    }

    @Override
    public int[] cpus() {
        return cpus == null ? null : cpus.clone();
    }
}
