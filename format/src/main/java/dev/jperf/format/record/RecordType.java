package dev.jperf.format.record;

/** PERF_RECORD_* type numbers and the names perf prints for them ({@code perf report -D}, {@code --stats}). */
public final class RecordType {
    public static final int PERF_RECORD_MMAP = 1;
    public static final int PERF_RECORD_LOST = 2;
    public static final int PERF_RECORD_COMM = 3;
    public static final int PERF_RECORD_EXIT = 4;
    public static final int PERF_RECORD_THROTTLE = 5;
    public static final int PERF_RECORD_UNTHROTTLE = 6;
    public static final int PERF_RECORD_FORK = 7;
    public static final int PERF_RECORD_READ = 8;
    public static final int PERF_RECORD_SAMPLE = 9;
    public static final int PERF_RECORD_MMAP2 = 10;
    public static final int PERF_RECORD_AUX = 11;
    public static final int PERF_RECORD_ITRACE_START = 12;
    public static final int PERF_RECORD_LOST_SAMPLES = 13;
    public static final int PERF_RECORD_SWITCH = 14;
    public static final int PERF_RECORD_SWITCH_CPU_WIDE = 15;
    public static final int PERF_RECORD_NAMESPACES = 16;
    public static final int PERF_RECORD_KSYMBOL = 17;
    public static final int PERF_RECORD_BPF_EVENT = 18;
    public static final int PERF_RECORD_CGROUP = 19;
    public static final int PERF_RECORD_TEXT_POKE = 20;
    public static final int PERF_RECORD_AUX_OUTPUT_HW_ID = 21;
    /** One past the last kernel type. */
    public static final int PERF_RECORD_MAX = 22;

    public static final int PERF_RECORD_USER_TYPE_START = 64;
    public static final int PERF_RECORD_HEADER_ATTR = 64;
    public static final int PERF_RECORD_HEADER_EVENT_TYPE = 65;
    public static final int PERF_RECORD_HEADER_TRACING_DATA = 66;
    public static final int PERF_RECORD_HEADER_BUILD_ID = 67;
    public static final int PERF_RECORD_FINISHED_ROUND = 68;
    public static final int PERF_RECORD_ID_INDEX = 69;
    public static final int PERF_RECORD_AUXTRACE_INFO = 70;
    public static final int PERF_RECORD_AUXTRACE = 71;
    public static final int PERF_RECORD_AUXTRACE_ERROR = 72;
    public static final int PERF_RECORD_THREAD_MAP = 73;
    public static final int PERF_RECORD_CPU_MAP = 74;
    public static final int PERF_RECORD_STAT_CONFIG = 75;
    public static final int PERF_RECORD_STAT = 76;
    public static final int PERF_RECORD_STAT_ROUND = 77;
    public static final int PERF_RECORD_EVENT_UPDATE = 78;
    public static final int PERF_RECORD_TIME_CONV = 79;
    public static final int PERF_RECORD_HEADER_FEATURE = 80;
    public static final int PERF_RECORD_COMPRESSED = 81;
    public static final int PERF_RECORD_FINISHED_INIT = 82;
    public static final int PERF_RECORD_COMPRESSED2 = 83;
    /** One past the last type perf 6.1 knows (its PERF_RECORD_HEADER_MAX); COMPRESSED2 came later. */
    public static final int PERF_RECORD_HEADER_MAX_6_1 = 83;
    /** One past the last type this reader decodes. */
    public static final int PERF_RECORD_HEADER_MAX = 84;

    private static final String[] NAMES = new String[PERF_RECORD_HEADER_MAX];

    static {
        String[] kernel = {"TOTAL", "MMAP", "LOST", "COMM", "EXIT", "THROTTLE", "UNTHROTTLE", "FORK", "READ",
            "SAMPLE", "MMAP2", "AUX", "ITRACE_START", "LOST_SAMPLES", "SWITCH", "SWITCH_CPU_WIDE", "NAMESPACES",
            "KSYMBOL", "BPF_EVENT", "CGROUP", "TEXT_POKE", "AUX_OUTPUT_HW_ID"};
        String[] user = {"ATTR", "EVENT_TYPE", "TRACING_DATA", "BUILD_ID", "FINISHED_ROUND", "ID_INDEX",
            "AUXTRACE_INFO", "AUXTRACE", "AUXTRACE_ERROR", "THREAD_MAP", "CPU_MAP", "STAT_CONFIG", "STAT",
            "STAT_ROUND", "EVENT_UPDATE", "TIME_CONV", "FEATURE", "COMPRESSED", "FINISHED_INIT", "COMPRESSED2"};
        System.arraycopy(kernel, 0, NAMES, 0, kernel.length);
        System.arraycopy(user, 0, NAMES, PERF_RECORD_USER_TYPE_START, user.length);
    }

    private RecordType() {
    }

    /** perf's name of a record type ("SAMPLE", "FEATURE", "COMPRESSED"...), "UNKNOWN" if it has none. */
    public static String name(int type) {
        String n = type >= 0 && type < NAMES.length ? NAMES[type] : null;
        return n == null ? "UNKNOWN" : n;
    }

    public static boolean isKnown(int type) {
        return type > 0 && type < NAMES.length && NAMES[type] != null;
    }

    /** True for types the kernel writes (they may carry a sample_id trailer). */
    public static boolean isKernel(int type) {
        return type > 0 && type < PERF_RECORD_USER_TYPE_START;
    }
}
