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
}
