package dev.jperf.format.feature;

/**
 * Feature bits of the perf.data header (HEADER_* in tools/perf/util/header.h), with the names
 * perf prints (e.g. in "# missing features:"). Bits not listed here are kept as raw bodies.
 */
public enum Feature {
    RESERVED(0), TRACING_DATA(1), BUILD_ID(2), HOSTNAME(3), OSRELEASE(4), VERSION(5), ARCH(6),
    NRCPUS(7), CPUDESC(8), CPUID(9), TOTAL_MEM(10), CMDLINE(11), EVENT_DESC(12), CPU_TOPOLOGY(13),
    NUMA_TOPOLOGY(14), BRANCH_STACK(15), PMU_MAPPINGS(16), GROUP_DESC(17), AUXTRACE(18), STAT(19),
    CACHE(20), SAMPLE_TIME(21), MEM_TOPOLOGY(22), CLOCKID(23), DIR_FORMAT(24), BPF_PROG_INFO(25),
    BPF_BTF(26), COMPRESSED(27), CPU_PMU_CAPS(28), CLOCK_DATA(29), HYBRID_TOPOLOGY(30),
    PMU_CAPS(31), CPU_DOMAIN_INFO(32);

    /** perf 6.1's HEADER_LAST_FEATURE: its pipe-mode end mark and the bound of "missing features". */
    public static final int PERF_6_1_LAST_FEATURE = 32;

    private static final Feature[] BY_BIT = values();

    private final int bit;

    Feature(int bit) {
        this.bit = bit;
    }

    public int bit() {
        return bit;
    }

    /** The feature with this bit number, or null for a bit this reader does not know. */
    public static Feature of(int bit) {
        return bit >= 0 && bit < BY_BIT.length ? BY_BIT[bit] : null;
    }

    /** perf's name for a bit: the enum name, or "feature N" for unknown bits. */
    public static String name(int bit) {
        Feature f = of(bit);
        return f == null ? "feature " + bit : f.name();
    }
}
