package dev.jperf.format.record;

/**
 * The read_format values of a READ record or PERF_SAMPLE_READ: one entry per counter (one, or the
 * whole group with PERF_FORMAT_GROUP). Absent optional fields are {@code -1}; {@code ids}/{@code lost}
 * are null when not read.
 */
public record ReadValues(long timeEnabled, long timeRunning, long[] values, long[] ids, long[] lost) {
    public ReadValues {
        values = values.clone();
        ids = ids == null ? null : ids.clone();
        lost = lost == null ? null : lost.clone();
    }

    @Override
    public long[] values() {
        return values.clone();
    }

    @Override
    public long[] ids() {
        return ids == null ? null : ids.clone();
    }

    @Override
    public long[] lost() {
        return lost == null ? null : lost.clone();
    }
}
