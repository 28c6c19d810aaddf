package dev.jperf.format.record;

import static dev.jperf.format.header.PerfEventAttr.PERF_SAMPLE_BRANCH_HW_INDEX;
import static dev.jperf.format.header.PerfEventAttr.PERF_SAMPLE_BRANCH_STACK;
import static dev.jperf.format.header.PerfEventAttr.PERF_SAMPLE_RAW;
import static dev.jperf.format.header.PerfEventAttr.PERF_SAMPLE_REGS_USER;
import static dev.jperf.format.header.PerfEventAttr.PERF_SAMPLE_STACK_USER;

import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.io.ByteSource;

/**
 * Where a sample's PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER are in its bytes, found from
 * the end of its callchain over RAW and BRANCH_STACK (spec §8's order) without decoding it: what
 * the DWARF unwinder reads in place, sample after sample, through one reused instance.
 */
public final class UserStack {
    /** The registers' ABI (0: none sampled, as for a kernel thread). */
    public long abi;
    /** Where the registers are (one u64 per bit of attr.sample_regs_user). */
    public long regsAt;
    public long mask;
    /** Where the stack copy is, and its dyn_size (the bytes the kernel copied; perf's user_stack.size). */
    public long stackAt;
    public long stackSize;

    /** Whether samples of {@code attr} carry both (perf's "can we do dwarf post unwind"). */
    public static boolean sampled(PerfEventAttr attr) {
        long st = attr.sampleType();
        return (st & PERF_SAMPLE_REGS_USER) != 0 && (st & PERF_SAMPLE_STACK_USER) != 0;
    }

    /**
     * Locates them in the sample whose bytes end at {@code end}, {@code p} being just past its
     * callchain; false when they do not fit there.
     */
    public boolean locate(ByteSource src, long p, long end, PerfEventAttr attr) {
        long st = attr.sampleType();
        if ((st & PERF_SAMPLE_RAW) != 0) {
            if (p + 4 > end) {
                return false;
            }
            p += 4 + src.u32(p);
        }
        if ((st & PERF_SAMPLE_BRANCH_STACK) != 0) {
            if (p + 8 > end) {
                return false;
            }
            long nr = src.u64(p);
            if (nr < 0 || nr > (end - p) / 24) {
                return false;
            }
            p += 8 + ((attr.branchSampleType() & PERF_SAMPLE_BRANCH_HW_INDEX) != 0 ? 8 : 0) + 24 * nr;
        }
        if (p + 8 > end) {
            return false;
        }
        abi = src.u64(p);
        mask = attr.sampleRegsUser();
        p += 8;
        regsAt = p;
        if (abi != 0) {
            p += 8L * Long.bitCount(mask);
        }
        if (p + 8 > end) {
            return false;
        }
        long size = src.u64(p);
        p += 8;
        if (size < 0 || size > end - p) {
            return false;
        }
        stackAt = p;
        stackSize = 0;
        if (size != 0) {
            if (p + size + 8 > end) {
                return false;
            }
            long dyn = src.u64(p + size);
            stackSize = dyn < 0 || dyn > size ? 0 : dyn;
        }
        return true;
    }
}
