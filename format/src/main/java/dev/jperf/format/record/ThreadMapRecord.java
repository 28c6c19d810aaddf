package dev.jperf.format.record;

/** PERF_RECORD_THREAD_MAP: the threads the events were opened for ({@code -1}: all, with {@code -a}). */
public record ThreadMapRecord(long offset, int misc, int size, long[] pids, String[] comms) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_THREAD_MAP;
    }
    public ThreadMapRecord {
        pids = pids.clone();
        comms = comms.clone();
    }

    @Override
    public long[] pids() {
        return pids.clone();
    }

    @Override
    public String[] comms() {
        return comms.clone();
    }
}
