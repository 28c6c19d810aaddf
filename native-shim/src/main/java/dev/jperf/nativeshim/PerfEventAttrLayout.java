package dev.jperf.nativeshim;

/**
 * struct perf_event_attr, encoded explicitly (ring-buffer.md §2). Bit-fields and unions do not fit
 * a JNA Structure, so the recorder fills a little-endian buffer at these offsets.
 */
public final class PerfEventAttrLayout {
    private PerfEventAttrLayout() {}

    /** The size perf 6.1 knows and writes into perf.data (VER7); the kernel accepts it. */
    public static final int PERF_ATTR_SIZE_VER7 = 128;

    public static final int TYPE = 0;
    public static final int SIZE = 4;
    public static final int CONFIG = 8;
    /** sample_period, or sample_freq when {@link #FLAG_FREQ} is set. */
    public static final int SAMPLE_PERIOD = 16;
    public static final int SAMPLE_TYPE = 24;
    public static final int READ_FORMAT = 32;
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
    public static final int SIG_DATA = 120;

    // bits of the u64 at FLAGS
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

    // enum perf_event_sample_format
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
    public static final long PERF_SAMPLE_IDENTIFIER = 1L << 16;

    // enum perf_event_read_format
    public static final long PERF_FORMAT_TOTAL_TIME_ENABLED = 1;
    public static final long PERF_FORMAT_TOTAL_TIME_RUNNING = 2;
    public static final long PERF_FORMAT_ID = 4;
    public static final long PERF_FORMAT_GROUP = 8;
    public static final long PERF_FORMAT_LOST = 16;

    // perf_event_open flags
    public static final long PERF_FLAG_FD_NO_GROUP = 1;
    public static final long PERF_FLAG_FD_OUTPUT = 2;
    public static final long PERF_FLAG_PID_CGROUP = 4;
    public static final long PERF_FLAG_FD_CLOEXEC = 8;
}
