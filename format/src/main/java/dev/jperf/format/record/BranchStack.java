package dev.jperf.format.record;

/**
 * PERF_SAMPLE_BRANCH_STACK: {@code nr} entries (from, to, flags); {@code hwIdx} is {@code -1}
 * unless branch_sample_type has PERF_SAMPLE_BRANCH_HW_INDEX.
 */
public record BranchStack(long hwIdx, long[] from, long[] to, long[] flags) {
    public BranchStack {
        from = from.clone();
        to = to.clone();
        flags = flags.clone();
    }

    public int nr() {
        return from.length;
    }

    @Override
    public long[] from() {
        return from.clone();
    }

    @Override
    public long[] to() {
        return to.clone();
    }

    @Override
    public long[] flags() {
        return flags.clone();
    }

    /** The branch stack at the input's cursor: nr, hw_idx when {@code hwIdx}, then nr entries. */
    static BranchStack decode(RecordInput r, boolean hwIdx) {
        long p = r.at();
        r.need(p + 8);
        long nr = r.u64(p);
        p += 8;
        long idx = -1;
        if (hwIdx) {
            r.need(p + 8);
            idx = r.u64(p);
            p += 8;
        }
        if (nr < 0 || nr > (r.size - p) / 24) {
            throw r.bad("branch stack nr " + Long.toUnsignedString(nr) + " does not fit");
        }
        long[] from = new long[(int) nr];
        long[] to = new long[(int) nr];
        long[] flags = new long[(int) nr];
        for (int i = 0; i < nr; i++) {
            from[i] = r.u64(p);
            to[i] = r.u64(p + 8);
            flags[i] = r.u64(p + 16);
            p += 24;
        }
        r.seek(p);
        return new BranchStack(idx, from, to, flags);
    }
}
