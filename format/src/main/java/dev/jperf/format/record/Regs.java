package dev.jperf.format.record;

/**
 * PERF_SAMPLE_REGS_USER / REGS_INTR: the ABI (0 = none, then no registers) and the registers
 * selected by {@code mask} (attr.sample_regs_user / _intr), lowest bit first.
 */
public record Regs(long abi, long mask, long[] regs) {
    private static final long[] NO_REGS = new long[0];

    public Regs {
        regs = regs.clone();
    }

    @Override
    public long[] regs() {
        return regs.clone();
    }

    /** The registers at the input's cursor (abi, then one u64 per bit of {@code mask} unless abi is 0). */
    static Regs decode(RecordInput r, long mask) {
        long abi = r.next();
        if (abi == 0) {
            return new Regs(0, mask, NO_REGS);
        }
        int n = Long.bitCount(mask);
        r.need(r.at() + 8L * n);
        long[] regs = r.u64s(r.at(), n);
        r.skip(8L * n);
        return new Regs(abi, mask, regs);
    }
}
