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

    static EventUpdateRecord decode(RecordInput r) {
        r.need(24);
        long ut = r.u64(8);
        String text = null;
        double scale = Double.NaN;
        int[] cpus = null;
        if (ut == PERF_EVENT_UPDATE__UNIT || ut == PERF_EVENT_UPDATE__NAME) {
            text = r.cString(24, r.size - 24);
        } else if (ut == PERF_EVENT_UPDATE__SCALE) {
            r.need(32);
            scale = Double.longBitsToDouble(r.u64(24));
        } else if (ut == PERF_EVENT_UPDATE__CPUS) {
            cpus = CpuMapRecord.cpus(r, 24);
        }
        return new EventUpdateRecord(r.offset, r.misc, r.size, ut, r.u64(16), text, scale, cpus);
    }
}
