package dev.jperf.nativeshim;

/** struct perf_event_mmap_page: the control page at the start of every ring mapping (ring-buffer.md §3.1). */
public final class PerfEventMmapPage {
    private PerfEventMmapPage() {}

    public static final int VERSION = 0;
    public static final int COMPAT_VERSION = 4;
    public static final int LOCK = 8;
    public static final int INDEX = 12;
    public static final int OFFSET = 16;
    public static final int TIME_ENABLED = 24;
    public static final int TIME_RUNNING = 32;
    public static final int CAPABILITIES = 40;
    public static final int PMC_WIDTH = 48;
    public static final int TIME_SHIFT = 50;
    public static final int TIME_MULT = 52;
    public static final int TIME_OFFSET = 56;
    public static final int TIME_ZERO = 64;
    public static final int SIZE = 72;
    public static final int TIME_CYCLES = 80;
    public static final int TIME_MASK = 88;
    /** u64 written by the kernel: bytes ever written; read with acquire semantics. */
    public static final int DATA_HEAD = 1024;
    /** u64 written by the reader: bytes consumed; stored with release semantics. */
    public static final int DATA_TAIL = 1032;
    public static final int DATA_OFFSET = 1040;
    public static final int DATA_SIZE = 1048;
    public static final int AUX_HEAD = 1056;
    public static final int AUX_TAIL = 1064;
    public static final int AUX_OFFSET = 1072;
    public static final int AUX_SIZE = 1080;
}
