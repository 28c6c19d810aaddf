package dev.jperf.format.header;

/**
 * The name perf gives an event that has no name in the file (its {@code evsel__name}): the
 * generic name of (type, config) plus modifiers (":u", ":ppp", ":H", ...).
 */
public final class EventNames {
    private static final String[] HW = {"cycles", "instructions", "cache-references", "cache-misses", "branches",
        "branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles"};
    private static final String[] SW = {"cpu-clock", "task-clock", "page-faults", "context-switches",
        "cpu-migrations", "minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
        "bpf-output", "cgroup-switches"};
    private static final String[] CACHE = {"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node"};
    private static final String[] CACHE_OP = {"load", "store", "prefetch"};
    private static final String[] CACHE_RESULT = {"refs", "misses"};

    private EventNames() {
    }

    public static String of(PerfEventAttr a) {
        long c = a.config();
        switch (a.type()) {
            case PerfEventAttr.PERF_TYPE_HARDWARE:
                return (c >= 0 && c < HW.length ? HW[(int) c] : "unknown-hardware") + modifiers(a);
            case PerfEventAttr.PERF_TYPE_SOFTWARE:
                return (c >= 0 && c < SW.length ? SW[(int) c] : "unknown-software") + modifiers(a);
            case PerfEventAttr.PERF_TYPE_TRACEPOINT:
                return "unknown tracepoint";
            case PerfEventAttr.PERF_TYPE_HW_CACHE:
                return cacheName(c) + modifiers(a);
            case PerfEventAttr.PERF_TYPE_RAW:
                return "raw 0x" + Long.toHexString(c) + modifiers(a);
            case PerfEventAttr.PERF_TYPE_BREAKPOINT:
                return "mem:0x" + Long.toHexString(a.config1()) + ":" + bpType(a.bpType()) + modifiers(a);
            default:
                return "unknown attr type: " + a.type();
        }
    }

    private static String cacheName(long c) {
        int type = (int) (c & 0xff);
        int op = (int) ((c >>> 8) & 0xff);
        int result = (int) ((c >>> 16) & 0xff);
        if (type >= CACHE.length || op >= CACHE_OP.length || result >= CACHE_RESULT.length) {
            return "unknown-ext-hardware-cache-type";
        }
        return CACHE[type] + "-" + CACHE_OP[op] + "-" + CACHE_RESULT[result];
    }

    private static String bpType(int t) {
        StringBuilder sb = new StringBuilder();
        if ((t & 1) != 0) {
            sb.append('r');
        }
        if ((t & 2) != 0) {
            sb.append('w');
        }
        if ((t & 4) != 0) {
            sb.append('x');
        }
        return sb.toString();
    }

    /** perf's {@code evsel__add_modifiers}. */
    static String modifiers(PerfEventAttr a) {
        StringBuilder sb = new StringBuilder();
        boolean exclKernel = a.flag(PerfEventAttr.FLAG_EXCLUDE_KERNEL);
        boolean exclUser = a.flag(PerfEventAttr.FLAG_EXCLUDE_USER);
        boolean exclHv = a.flag(PerfEventAttr.FLAG_EXCLUDE_HV);
        boolean exclHost = a.flag(PerfEventAttr.FLAG_EXCLUDE_HOST);
        boolean exclGuest = a.flag(PerfEventAttr.FLAG_EXCLUDE_GUEST);
        boolean exclGuestDefault = false;
        if (exclKernel || exclUser || exclHv) {
            if (!exclKernel) {
                sb.append('k');
            }
            if (!exclUser) {
                sb.append('u');
            }
            if (!exclHv) {
                sb.append('h');
            }
            exclGuestDefault = true;
        }
        if (a.preciseIp() > 0) {
            sb.append("ppp", 0, a.preciseIp());
            exclGuestDefault = true;
        }
        if (exclHost || exclGuest == exclGuestDefault) {
            if (!exclHost) {
                sb.append('H');
            }
            if (!exclGuest) {
                sb.append('G');
            }
        }
        return sb.length() == 0 ? "" : ":" + sb;
    }
}
