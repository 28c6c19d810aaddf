package dev.jperf.format.record;

/**
 * PERF_SAMPLE_REGS_USER / REGS_INTR: the ABI (0 = none, then no registers) and the registers
 * selected by {@code mask} (attr.sample_regs_user / _intr), lowest bit first.
 */
public record Regs(long abi, long mask, long[] regs) {
    public Regs {
        regs = regs.clone();
    }

    @Override
    public long[] regs() {
        return regs.clone();
    }
}
