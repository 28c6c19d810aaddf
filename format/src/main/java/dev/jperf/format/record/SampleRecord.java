package dev.jperf.format.record;

import dev.jperf.format.header.EventDesc;
import java.util.Objects;

/**
 * PERF_RECORD_SAMPLE, decoded with its event's sample_type. Fields the event does not sample are
 * {@code -1} (numbers) or null (arrays and structures), except {@link #period()}, which is the
 * attr's fixed period when PERF_SAMPLE_PERIOD is not sampled, as perf does.
 *
 * <p>The value is immutable: the array accessors ({@link #callchain()}, {@link #raw()},
 * {@link #stackUser()}, {@link #aux()}) return copies; readers of many samples walk the callchain
 * with {@link #callchainLength()} and {@link #callchain(int)} instead, which copy nothing. The
 * callchain holds addresses and PERF_CONTEXT_* markers (values {@code >= PERF_CONTEXT_MAX} unsigned).
 * The constructor keeps the arrays it is given (the decoder's own, which nothing else holds).
 *
 * @param event the event (evsel) of the sample, never null
 * @param id PERF_SAMPLE_IDENTIFIER or PERF_SAMPLE_ID
 * @param weight PERF_SAMPLE_WEIGHT, or the PERF_SAMPLE_WEIGHT_STRUCT word (var1 in bits 0-31, var2 16-47, var3 48-63)
 * @param stackUserDynSize dyn_size of PERF_SAMPLE_STACK_USER ({@code -1} when absent)
 */
public record SampleRecord(long offset, int misc, int size, EventDesc event, long id, long ip, int pid, int tid,
        long time, long addr, long streamId, int cpu, long period, ReadValues read, long[] callchain, byte[] raw,
        BranchStack branchStack, Regs regsUser, byte[] stackUser, long stackUserDynSize, long weight, long dataSrc,
        long transaction, Regs regsIntr, long physAddr, long cgroup, long dataPageSize, long codePageSize,
        byte[] aux) implements PerfRecord {

    public static final long PERF_CONTEXT_HV = -32;
    public static final long PERF_CONTEXT_KERNEL = -128;
    public static final long PERF_CONTEXT_USER = -512;
    public static final long PERF_CONTEXT_GUEST = -2048;
    public static final long PERF_CONTEXT_GUEST_KERNEL = -2176;
    public static final long PERF_CONTEXT_GUEST_USER = -2560;
    public static final long PERF_CONTEXT_MAX = -4095;

    @Override
    public int type() {
        return RecordType.PERF_RECORD_SAMPLE;
    }

    /** PERF_SAMPLE_CALLCHAIN: a copy of the entries, or null when the event does not sample it. */
    @Override
    public long[] callchain() {
        return callchain == null ? null : callchain.clone();
    }

    /** True when the sample has PERF_SAMPLE_CALLCHAIN. */
    public boolean hasCallchain() {
        return callchain != null;
    }

    /** Entries of the callchain (addresses and PERF_CONTEXT_* markers); 0 without one. */
    public int callchainLength() {
        return callchain == null ? 0 : callchain.length;
    }

    /** Entry {@code i} of the callchain (no copy). */
    public long callchain(int i) {
        Objects.checkIndex(i, callchainLength());
        return callchain[i];
    }

    /** PERF_SAMPLE_RAW: a copy of the bytes, or null. */
    @Override
    public byte[] raw() {
        return raw == null ? null : raw.clone();
    }

    /** PERF_SAMPLE_STACK_USER: a copy of the stack bytes, or null. */
    @Override
    public byte[] stackUser() {
        return stackUser == null ? null : stackUser.clone();
    }

    /** PERF_SAMPLE_AUX: a copy of the bytes, or null. */
    @Override
    public byte[] aux() {
        return aux == null ? null : aux.clone();
    }

    /** True for a PERF_CONTEXT_* marker in a callchain. */
    public static boolean isContextMarker(long ip) {
        return Long.compareUnsigned(ip, PERF_CONTEXT_MAX) >= 0;
    }

    /**
     * The cpumode a callchain marker switches to for the addresses after it (HV, KERNEL, USER), or
     * -1 for the guest markers, which perf's resolver does not follow.
     */
    public static int cpumodeAfter(long marker) {
        if (marker == PERF_CONTEXT_HV) {
            return PerfRecord.PERF_RECORD_MISC_HYPERVISOR;
        }
        if (marker == PERF_CONTEXT_KERNEL) {
            return PerfRecord.PERF_RECORD_MISC_KERNEL;
        }
        if (marker == PERF_CONTEXT_USER) {
            return PerfRecord.PERF_RECORD_MISC_USER;
        }
        return -1;
    }

    /** PERF_RECORD_MISC_EXACT_IP. */
    public boolean exactIp() {
        return (misc & PerfRecord.PERF_RECORD_MISC_EXACT_IP) != 0;
    }
}
