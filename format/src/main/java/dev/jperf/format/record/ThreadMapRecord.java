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

    static ThreadMapRecord decode(RecordInput r) {
        r.need(16);
        int n = r.count(r.u64(8), r.size - 16, 24);
        long[] pids = new long[n];
        String[] comms = new String[n];
        for (int i = 0; i < n; i++) {
            long e = 16 + 24L * i;
            pids[i] = r.u64(e);
            comms[i] = r.cString(e + 8, 16);
        }
        return new ThreadMapRecord(r.offset, r.misc, r.size, pids, comms);
    }
}
