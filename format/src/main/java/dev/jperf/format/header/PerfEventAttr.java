package dev.jperf.format.header;

import dev.jperf.format.PerfDataException;
import dev.jperf.format.io.ByteSource;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@code struct perf_event_attr} as stored in a file (any size version; a shorter attr reads as
 * zero-extended, as the kernel does). {@link #raw()} keeps the bytes as stored (in the file's
 * byte order) so that nothing is lost on re-writing.
 *
 * <p>This class is also the one home of the attr's ABI: the byte offsets of its fields, the
 * FLAG_* bit-field masks, and the kernel's enums for its fields (perf_type_id, perf_hw_id,
 * perf_sw_ids, perf_event_sample_format, perf_event_read_format) and perf_event_open(2)'s flags,
 * named as in {@code include/uapi/linux/perf_event.h}. Where sampled fields sit in a record:
 * {@link dev.jperf.format.record.SampleLayout}.
 *
 * @param samplePeriod sample_period, or sample_freq when {@link #freq()}
 * @param flags the bit-field word at {@link #FLAGS} (see the FLAG_* masks)
 * @param wakeupEvents wakeup_events, or wakeup_watermark when the watermark flag is set
 * @param config1 bp_addr / kprobe_func / uprobe_path / config1
 * @param config2 bp_len / kprobe_addr / probe_offset / config2
 */
public record PerfEventAttr(int type, int size, long config, long samplePeriod, long sampleType, long readFormat,
        long flags, int wakeupEvents, int bpType, long config1, long config2, long branchSampleType,
        long sampleRegsUser, int sampleStackUser, int clockid, long sampleRegsIntr, int auxWatermark,
        int sampleMaxStack, int auxSampleSize, int auxAction, long sigData, long config3, byte[] raw) {

    public static final int PERF_ATTR_SIZE_VER0 = 64;
    /** The size perf 6.1 knows and writes into perf.data; the kernel accepts it. */
    public static final int PERF_ATTR_SIZE_VER7 = 128;
    public static final int PERF_ATTR_SIZE_VER8 = 136;

    // byte offsets of the fields (the recorder fills a little-endian buffer at these; decode reads them)
    public static final int TYPE = 0;
    public static final int SIZE = 4;
    public static final int CONFIG = 8;
    /** sample_period, or sample_freq when {@link #FLAG_FREQ} is set. */
    public static final int SAMPLE_PERIOD = 16;
    public static final int SAMPLE_TYPE = 24;
    public static final int READ_FORMAT = 32;
    /** The u64 of bit-fields (the FLAG_* masks, precise_ip at {@link #PRECISE_IP_SHIFT}). */
    public static final int FLAGS = 40;
    /** wakeup_events, or wakeup_watermark when {@link #FLAG_WATERMARK} is set. */
    public static final int WAKEUP_EVENTS = 48;
    public static final int BP_TYPE = 52;
    public static final int CONFIG1 = 56;
    public static final int CONFIG2 = 64;
    public static final int BRANCH_SAMPLE_TYPE = 72;
    public static final int SAMPLE_REGS_USER = 80;
    public static final int SAMPLE_STACK_USER = 88;
    public static final int CLOCKID = 92;
    public static final int SAMPLE_REGS_INTR = 96;
    public static final int AUX_WATERMARK = 104;
    public static final int SAMPLE_MAX_STACK = 108;
    public static final int AUX_SAMPLE_SIZE = 112;
    public static final int AUX_ACTION = 116;
    public static final int SIG_DATA = 120;
    public static final int CONFIG3 = 128;

    // bits of the u64 at FLAGS (as on a little-endian machine; decode turns a big-endian file's around)
    public static final long FLAG_DISABLED = 1L << 0;
    public static final long FLAG_INHERIT = 1L << 1;
    public static final long FLAG_PINNED = 1L << 2;
    public static final long FLAG_EXCLUSIVE = 1L << 3;
    public static final long FLAG_EXCLUDE_USER = 1L << 4;
    public static final long FLAG_EXCLUDE_KERNEL = 1L << 5;
    public static final long FLAG_EXCLUDE_HV = 1L << 6;
    public static final long FLAG_EXCLUDE_IDLE = 1L << 7;
    public static final long FLAG_MMAP = 1L << 8;
    public static final long FLAG_COMM = 1L << 9;
    public static final long FLAG_FREQ = 1L << 10;
    public static final long FLAG_INHERIT_STAT = 1L << 11;
    public static final long FLAG_ENABLE_ON_EXEC = 1L << 12;
    public static final long FLAG_TASK = 1L << 13;
    public static final long FLAG_WATERMARK = 1L << 14;
    /** precise_ip: two bits from here. */
    public static final int PRECISE_IP_SHIFT = 15;
    public static final long FLAG_MMAP_DATA = 1L << 17;
    public static final long FLAG_SAMPLE_ID_ALL = 1L << 18;
    public static final long FLAG_EXCLUDE_HOST = 1L << 19;
    public static final long FLAG_EXCLUDE_GUEST = 1L << 20;
    public static final long FLAG_EXCLUDE_CALLCHAIN_KERNEL = 1L << 21;
    public static final long FLAG_EXCLUDE_CALLCHAIN_USER = 1L << 22;
    public static final long FLAG_MMAP2 = 1L << 23;
    public static final long FLAG_COMM_EXEC = 1L << 24;
    public static final long FLAG_USE_CLOCKID = 1L << 25;
    public static final long FLAG_CONTEXT_SWITCH = 1L << 26;
    public static final long FLAG_WRITE_BACKWARD = 1L << 27;
    public static final long FLAG_NAMESPACES = 1L << 28;
    public static final long FLAG_KSYMBOL = 1L << 29;
    public static final long FLAG_BPF_EVENT = 1L << 30;
    public static final long FLAG_AUX_OUTPUT = 1L << 31;
    public static final long FLAG_CGROUP = 1L << 32;
    public static final long FLAG_TEXT_POKE = 1L << 33;
    public static final long FLAG_BUILD_ID = 1L << 34;

    // enum perf_type_id
    public static final int PERF_TYPE_HARDWARE = 0;
    public static final int PERF_TYPE_SOFTWARE = 1;
    public static final int PERF_TYPE_TRACEPOINT = 2;
    public static final int PERF_TYPE_HW_CACHE = 3;
    public static final int PERF_TYPE_RAW = 4;
    public static final int PERF_TYPE_BREAKPOINT = 5;

    // enum perf_hw_id
    public static final int PERF_COUNT_HW_CPU_CYCLES = 0;
    public static final int PERF_COUNT_HW_INSTRUCTIONS = 1;
    public static final int PERF_COUNT_HW_CACHE_REFERENCES = 2;
    public static final int PERF_COUNT_HW_CACHE_MISSES = 3;
    public static final int PERF_COUNT_HW_BRANCH_INSTRUCTIONS = 4;
    public static final int PERF_COUNT_HW_BRANCH_MISSES = 5;
    public static final int PERF_COUNT_HW_BUS_CYCLES = 6;
    public static final int PERF_COUNT_HW_STALLED_CYCLES_FRONTEND = 7;
    public static final int PERF_COUNT_HW_STALLED_CYCLES_BACKEND = 8;
    public static final int PERF_COUNT_HW_REF_CPU_CYCLES = 9;

    // enum perf_sw_ids
    public static final int PERF_COUNT_SW_CPU_CLOCK = 0;
    public static final int PERF_COUNT_SW_TASK_CLOCK = 1;
    public static final int PERF_COUNT_SW_PAGE_FAULTS = 2;
    public static final int PERF_COUNT_SW_CONTEXT_SWITCHES = 3;
    public static final int PERF_COUNT_SW_CPU_MIGRATIONS = 4;
    public static final int PERF_COUNT_SW_PAGE_FAULTS_MIN = 5;
    public static final int PERF_COUNT_SW_PAGE_FAULTS_MAJ = 6;
    public static final int PERF_COUNT_SW_ALIGNMENT_FAULTS = 7;
    public static final int PERF_COUNT_SW_EMULATION_FAULTS = 8;
    public static final int PERF_COUNT_SW_DUMMY = 9;
    public static final int PERF_COUNT_SW_BPF_OUTPUT = 10;
    public static final int PERF_COUNT_SW_CGROUP_SWITCHES = 11;

    // enum perf_event_sample_format (where each sits in a record: SampleLayout)
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

    // enum perf_event_read_format
    public static final long PERF_FORMAT_TOTAL_TIME_ENABLED = 1L << 0;
    public static final long PERF_FORMAT_TOTAL_TIME_RUNNING = 1L << 1;
    public static final long PERF_FORMAT_ID = 1L << 2;
    public static final long PERF_FORMAT_GROUP = 1L << 3;
    public static final long PERF_FORMAT_LOST = 1L << 4;

    // enum perf_branch_sample_type (branch_sample_type)
    public static final long PERF_SAMPLE_BRANCH_USER = 1L << 0;
    public static final long PERF_SAMPLE_BRANCH_CALL_STACK = 1L << 11;
    public static final long PERF_SAMPLE_BRANCH_NO_FLAGS = 1L << 14;
    public static final long PERF_SAMPLE_BRANCH_NO_CYCLES = 1L << 15;
    /** branch_sample_type bit that adds hw_idx to PERF_SAMPLE_BRANCH_STACK. */
    public static final long PERF_SAMPLE_BRANCH_HW_INDEX = 1L << 17;

    // perf_event_open(2) flags
    public static final long PERF_FLAG_FD_NO_GROUP = 1;
    public static final long PERF_FLAG_FD_OUTPUT = 2;
    public static final long PERF_FLAG_PID_CGROUP = 4;
    public static final long PERF_FLAG_FD_CLOEXEC = 8;

    public PerfEventAttr {
        raw = raw.clone();
    }

    /** The attr bytes as stored (file byte order, {@link #size()} bytes). */
    @Override
    public byte[] raw() {
        return raw.clone();
    }

    /**
     * The one builder of a perf_event_attr for perf_event_open: {@link #PERF_ATTR_SIZE_VER7} bytes
     * (the size perf 6.1 knows; the kernel accepts it), little-endian, with its type, size and
     * config set and every other field 0, for the caller to set by the offsets here.
     */
    public static ByteBuffer open(int type, long config) {
        ByteBuffer a = ByteBuffer.allocate(PERF_ATTR_SIZE_VER7).order(ByteOrder.LITTLE_ENDIAN);
        a.putInt(TYPE, type);
        a.putInt(SIZE, PERF_ATTR_SIZE_VER7);
        a.putLong(CONFIG, config);
        return a;
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
        long flags = b.u64(FLAGS);
        if (src.order() == ByteOrder.BIG_ENDIAN) {
            // C bit-fields are allocated from the most significant bit on big-endian machines
            flags = Long.reverse(flags);
        }
        return new PerfEventAttr(b.s32(TYPE), size, b.u64(CONFIG), b.u64(SAMPLE_PERIOD), b.u64(SAMPLE_TYPE),
                b.u64(READ_FORMAT), flags, b.s32(WAKEUP_EVENTS), b.s32(BP_TYPE), b.u64(CONFIG1), b.u64(CONFIG2),
                b.u64(BRANCH_SAMPLE_TYPE), b.u64(SAMPLE_REGS_USER), b.s32(SAMPLE_STACK_USER), b.s32(CLOCKID),
                b.u64(SAMPLE_REGS_INTR), b.s32(AUX_WATERMARK), b.u16(SAMPLE_MAX_STACK), b.s32(AUX_SAMPLE_SIZE),
                b.s32(AUX_ACTION), b.u64(SIG_DATA), b.u64(CONFIG3), raw);
    }

    /** Whether the bit-field of {@code mask} (a FLAG_* constant) is set. */
    public boolean flag(long mask) {
        return (flags & mask) != 0;
    }

    public boolean freq() {
        return flag(FLAG_FREQ);
    }

    public boolean sampleIdAll() {
        return flag(FLAG_SAMPLE_ID_ALL);
    }

    public int preciseIp() {
        return (int) (flags >>> PRECISE_IP_SHIFT) & 3;
    }

}
