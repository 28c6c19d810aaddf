package dev.jperf.format.record;

import static dev.jperf.format.header.PerfEventAttr.*;

import dev.jperf.format.header.EventDesc;
import dev.jperf.format.io.ByteSource;
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

    private static final long[] NO_CALLCHAIN = new long[0];

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

    /**
     * Decodes the SAMPLE at {@code pos} of {@code src} in full, with its event's {@link SampleLayout}
     * ({@code name} names the input in errors). The fixed fields and the callchain are read in
     * place; the parts after them through a {@link RecordInput}.
     */
    static SampleRecord decode(String name, EventRegistry events, ByteSource src, long pos, long offset) {
        int type = RecordType.PERF_RECORD_SAMPLE;
        int misc = src.u16(pos + 4);
        int size = src.u16(pos + 6);
        long end = pos + size;
        EventDesc ev = events.sampleEvent(name, src, pos, end);
        SampleLayout l = events.layout(ev.index());
        long st = l.sampleType();
        if (8L + l.fixedSize() > size) {
            throw RecordInput.bad(name, src, pos, type, "too short (needs " + (8L + l.fixedSize()) + " bytes)");
        }
        long id = l.idAt() < 0 ? -1 : src.u64(pos + l.idAt());
        long ip = l.ipAt() < 0 ? -1 : src.u64(pos + l.ipAt());
        int pid = l.tidAt() < 0 ? -1 : src.s32(pos + l.tidAt());
        int tid = l.tidAt() < 0 ? -1 : src.s32(pos + l.tidAt() + 4);
        long time = l.timeAt() < 0 ? -1 : src.u64(pos + l.timeAt());
        long addr = l.addrAt() < 0 ? -1 : src.u64(pos + l.addrAt());
        long streamId = l.streamIdAt() < 0 ? -1 : src.u64(pos + l.streamIdAt());
        int cpu = l.cpuAt() < 0 ? -1 : src.s32(pos + l.cpuAt());
        long period = l.periodAt() < 0 ? events.fixedPeriod(ev.index()) : src.u64(pos + l.periodAt());
        long p = pos + 8 + l.fixedSize();
        if (!l.hasVariableFields()) {
            return new SampleRecord(offset, misc, size, ev, id, ip, pid, tid, time, addr, streamId, cpu, period,
                    null, null, null, null, null, null, -1, -1, -1, -1, null, -1, -1, -1, -1, null);
        }
        RecordInput r = null;
        ReadValues read = null;
        if ((st & PERF_SAMPLE_READ) != 0) {
            r = new RecordInput(name, events, src, pos, offset);
            r.seek(p - pos);
            read = ReadValues.decode(r, l.readFormat(), size);
            p = pos + r.at();
        }
        long[] callchain = null;
        if ((st & PERF_SAMPLE_CALLCHAIN) != 0) {
            if (p + 8 > end) {
                throw RecordInput.bad(name, src, pos, type, "too short (needs " + (p + 8 - pos) + " bytes)");
            }
            long nr = src.u64(p);
            if (nr < 0 || nr > (end - p - 8) / 8) {
                throw RecordInput.bad(name, src, pos, type, "callchain nr " + Long.toUnsignedString(nr) + " does not fit");
            }
            callchain = nr == 0 ? NO_CALLCHAIN : src.u64s(p + 8, (int) nr);
            p += 8 + 8 * nr;
        }
        if (!l.hasVariableFieldsBesidesCallchain()) {
            return new SampleRecord(offset, misc, size, ev, id, ip, pid, tid, time, addr, streamId, cpu, period, read,
                    callchain, null, null, null, null, -1, -1, -1, -1, null, -1, -1, -1, -1, null);
        }
        if (r == null) {
            r = new RecordInput(name, events, src, pos, offset);
        }
        r.seek(p - pos);
        byte[] raw = null;
        if ((st & PERF_SAMPLE_RAW) != 0) {
            p = r.at();
            r.need(p + 4);
            long rs = r.u32(p);
            r.need(p + 4 + rs);
            raw = r.bytes(p + 4, (int) rs);
            r.seek(p + 4 + rs);
        }
        BranchStack bs = null;
        if ((st & PERF_SAMPLE_BRANCH_STACK) != 0) {
            bs = BranchStack.decode(r, l.branchHwIdx());
        }
        Regs regsUser = null;
        if ((st & PERF_SAMPLE_REGS_USER) != 0) {
            regsUser = Regs.decode(r, ev.attr().sampleRegsUser());
        }
        byte[] stack = null;
        long dynSize = -1;
        if ((st & PERF_SAMPLE_STACK_USER) != 0) {
            p = r.at();
            r.need(p + 8);
            long ss = r.u64(p);
            if (ss < 0 || ss > r.size - p - 8) {
                throw r.bad("user stack size " + Long.toUnsignedString(ss) + " does not fit");
            }
            stack = r.bytes(p + 8, (int) ss);
            p += 8 + ss;
            if (ss != 0) {
                r.need(p + 8);
                dynSize = r.u64(p);
                p += 8;
            }
            r.seek(p);
        }
        long weight = -1;
        long dataSrc = -1;
        long txn = -1;
        Regs regsIntr = null;
        long phys = -1;
        long cgroup = -1;
        long dps = -1;
        long cps = -1;
        byte[] aux = null;
        if ((st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) != 0) {
            weight = r.next();
        }
        if ((st & PERF_SAMPLE_DATA_SRC) != 0) {
            dataSrc = r.next();
        }
        if ((st & PERF_SAMPLE_TRANSACTION) != 0) {
            txn = r.next();
        }
        if ((st & PERF_SAMPLE_REGS_INTR) != 0) {
            regsIntr = Regs.decode(r, ev.attr().sampleRegsIntr());
        }
        if ((st & PERF_SAMPLE_PHYS_ADDR) != 0) {
            phys = r.next();
        }
        if ((st & PERF_SAMPLE_CGROUP) != 0) {
            cgroup = r.next();
        }
        if ((st & PERF_SAMPLE_DATA_PAGE_SIZE) != 0) {
            dps = r.next();
        }
        if ((st & PERF_SAMPLE_CODE_PAGE_SIZE) != 0) {
            cps = r.next();
        }
        if ((st & PERF_SAMPLE_AUX) != 0) {
            long as = r.next();
            p = r.at();
            if (as < 0 || as > r.size - p) {
                throw r.bad("aux size " + Long.toUnsignedString(as) + " does not fit");
            }
            aux = r.bytes(p, (int) as);
            r.seek(p + as);
        }
        return new SampleRecord(offset, misc, size, ev, id, ip, pid, tid, time, addr, streamId, cpu, period, read,
                callchain, raw, bs, regsUser, stack, dynSize, weight, dataSrc, txn, regsIntr, phys, cgroup, dps, cps, aux);
    }
}
