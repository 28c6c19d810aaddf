package dev.jperf.format.header;

import dev.jperf.format.PerfDataException;
import dev.jperf.format.io.ByteSource;
import java.nio.ByteOrder;

/**
 * {@code struct perf_event_attr} as stored in a file (any size version; a shorter attr reads as
 * zero-extended, as the kernel does). {@link #raw()} keeps the bytes as stored (in the file's
 * byte order) so that nothing is lost on re-writing.
 *
 * @param samplePeriod sample_period, or sample_freq when {@link #freq()}
 * @param flags the bit-field word at offset 40 (bit 0 = disabled; see the PERF_ATTR_FLAG_* constants)
 * @param wakeupEvents wakeup_events, or wakeup_watermark when the watermark flag is set
 * @param config1 bp_addr / kprobe_func / uprobe_path / config1
 * @param config2 bp_len / kprobe_addr / probe_offset / config2
 */
public record PerfEventAttr(int type, int size, long config, long samplePeriod, long sampleType, long readFormat,
        long flags, int wakeupEvents, int bpType, long config1, long config2, long branchSampleType,
        long sampleRegsUser, int sampleStackUser, int clockid, long sampleRegsIntr, int auxWatermark,
        int sampleMaxStack, int auxSampleSize, int auxAction, long sigData, long config3, byte[] raw) {

    public static final int PERF_ATTR_SIZE_VER0 = 64;
    public static final int PERF_ATTR_SIZE_VER7 = 128;
    public static final int PERF_ATTR_SIZE_VER8 = 136;

    public static final int PERF_TYPE_HARDWARE = 0;
    public static final int PERF_TYPE_SOFTWARE = 1;
    public static final int PERF_TYPE_TRACEPOINT = 2;
    public static final int PERF_TYPE_HW_CACHE = 3;
    public static final int PERF_TYPE_RAW = 4;
    public static final int PERF_TYPE_BREAKPOINT = 5;

    public static final long PERF_SAMPLE_IP = 1L << 0;
    public static final long PERF_SAMPLE_TID = 1L << 1;
    public static final long PERF_SAMPLE_TIME = 1L << 2;
    public static final long PERF_SAMPLE_ADDR = 1L << 3;
    public static final long PERF_SAMPLE_READ = 1L << 4;
    public static final long PERF_SAMPLE_CALLCHAIN = 1L << 5;
    public static final long PERF_SAMPLE_ID = 1L << 6;
    public static final long PERF_SAMPLE_CPU = 1L << 7;
    public static final long PERF_SAMPLE_PERIOD = 1L << 8;
    public static final long PERF_SAMPLE_STREAM_ID = 1L << 9;
    public static final long PERF_SAMPLE_RAW = 1L << 10;
    public static final long PERF_SAMPLE_BRANCH_STACK = 1L << 11;
    public static final long PERF_SAMPLE_REGS_USER = 1L << 12;
    public static final long PERF_SAMPLE_STACK_USER = 1L << 13;
    public static final long PERF_SAMPLE_WEIGHT = 1L << 14;
    public static final long PERF_SAMPLE_DATA_SRC = 1L << 15;
    public static final long PERF_SAMPLE_IDENTIFIER = 1L << 16;
    public static final long PERF_SAMPLE_TRANSACTION = 1L << 17;
    public static final long PERF_SAMPLE_REGS_INTR = 1L << 18;
    public static final long PERF_SAMPLE_PHYS_ADDR = 1L << 19;
    public static final long PERF_SAMPLE_AUX = 1L << 20;
    public static final long PERF_SAMPLE_CGROUP = 1L << 21;
    public static final long PERF_SAMPLE_DATA_PAGE_SIZE = 1L << 22;
    public static final long PERF_SAMPLE_CODE_PAGE_SIZE = 1L << 23;
    public static final long PERF_SAMPLE_WEIGHT_STRUCT = 1L << 24;

    public static final long PERF_FORMAT_TOTAL_TIME_ENABLED = 1L << 0;
    public static final long PERF_FORMAT_TOTAL_TIME_RUNNING = 1L << 1;
    public static final long PERF_FORMAT_ID = 1L << 2;
    public static final long PERF_FORMAT_GROUP = 1L << 3;
    public static final long PERF_FORMAT_LOST = 1L << 4;

    /** branch_sample_type bit that adds hw_idx to PERF_SAMPLE_BRANCH_STACK. */
    public static final long PERF_SAMPLE_BRANCH_HW_INDEX = 1L << 17;

    public static final int FLAG_DISABLED = 0;
    public static final int FLAG_INHERIT = 1;
    public static final int FLAG_EXCLUDE_USER = 4;
    public static final int FLAG_EXCLUDE_KERNEL = 5;
    public static final int FLAG_EXCLUDE_HV = 6;
    public static final int FLAG_EXCLUDE_IDLE = 7;
    public static final int FLAG_MMAP = 8;
    public static final int FLAG_COMM = 9;
    public static final int FLAG_FREQ = 10;
    public static final int FLAG_TASK = 13;
    public static final int FLAG_WATERMARK = 14;
    public static final int FLAG_PRECISE_IP = 15;
    public static final int FLAG_SAMPLE_ID_ALL = 18;
    public static final int FLAG_EXCLUDE_HOST = 19;
    public static final int FLAG_EXCLUDE_GUEST = 20;
    public static final int FLAG_MMAP2 = 23;
    public static final int FLAG_USE_CLOCKID = 25;
    public static final int FLAG_CONTEXT_SWITCH = 26;
    public static final int FLAG_KSYMBOL = 29;
    public static final int FLAG_BPF_EVENT = 30;

    public PerfEventAttr {
        raw = raw.clone();
    }

    /** The attr bytes as stored (file byte order, {@link #size()} bytes). */
    @Override
    public byte[] raw() {
        return raw.clone();
    }

    /**
     * Decodes an attr of {@code size} bytes at {@code off} (the caller has read attr.size; 0 means
     * {@link #PERF_ATTR_SIZE_VER0}). Fields beyond {@code size} read as zero.
     */
    public static PerfEventAttr decode(ByteSource src, long off, int size) {
        if (size < PERF_ATTR_SIZE_VER0) {
            throw new PerfDataException(src.name() + ": perf_event_attr at offset 0x" + Long.toHexString(off)
                    + " has size " + size + " (< " + PERF_ATTR_SIZE_VER0 + ")");
        }
        byte[] raw = src.bytes(off, size);
        byte[] ext = size >= PERF_ATTR_SIZE_VER8 ? raw : java.util.Arrays.copyOf(raw, PERF_ATTR_SIZE_VER8);
        ByteSource b = ByteSource.wrap(src.name(), ext).withOrder(src.order());
        long flags = b.u64(40);
        if (src.order() == ByteOrder.BIG_ENDIAN) {
            // C bit-fields are allocated from the most significant bit on big-endian machines
            flags = Long.reverse(flags);
        }
        return new PerfEventAttr(b.s32(0), size, b.u64(8), b.u64(16), b.u64(24), b.u64(32), flags, b.s32(48),
                b.s32(52), b.u64(56), b.u64(64), b.u64(72), b.u64(80), b.s32(88), b.s32(92), b.u64(96),
                b.s32(104), b.u16(108), b.s32(112), b.s32(116), b.u64(120), b.u64(128), raw);
    }

    public boolean flag(int bit) {
        return (flags & (1L << bit)) != 0;
    }

    public boolean freq() {
        return flag(FLAG_FREQ);
    }

    public boolean sampleIdAll() {
        return flag(FLAG_SAMPLE_ID_ALL);
    }

    public int preciseIp() {
        return (int) (flags >>> FLAG_PRECISE_IP) & 3;
    }

}
