package dev.jperf.recorder;

import static dev.jperf.format.header.PerfEventAttr.*;

import java.util.Locale;
import java.util.Map;

/**
 * An event as perf spells it ({@code cycles}, {@code cpu-clock}, {@code task-clock:u}, ...):
 * perf_event_attr type and config, the exclude bits and precise_ip perf 6.1 derives from the
 * modifiers, and the name perf gives it. Checked against perf 6.1's attrs and names on this
 * machine (RecordTest): without modifiers perf sets exclude_guest (event_attr_init); with
 * modifiers only {@code u} and {@code p} set it; {@code P} asks for the highest precise_ip.
 *
 * @param preciseMax precise_ip is the most wanted: lower it until the PMU takes it (perf's
 *     precise_max, set by {@code P} and for the default event)
 */
public record EventSpec(String name, int type, long config, long excludeFlags, int preciseIp, boolean preciseMax) {

    private static final Map<String, long[]> NAMES = Map.ofEntries(
            hw("cycles", PERF_COUNT_HW_CPU_CYCLES), hw("cpu-cycles", PERF_COUNT_HW_CPU_CYCLES),
            hw("instructions", PERF_COUNT_HW_INSTRUCTIONS),
            hw("cache-references", PERF_COUNT_HW_CACHE_REFERENCES), hw("cache-misses", PERF_COUNT_HW_CACHE_MISSES),
            hw("branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS), hw("branch-instructions", PERF_COUNT_HW_BRANCH_INSTRUCTIONS),
            hw("branch-misses", PERF_COUNT_HW_BRANCH_MISSES), hw("bus-cycles", PERF_COUNT_HW_BUS_CYCLES),
            hw("stalled-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND),
            hw("idle-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND),
            hw("stalled-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND),
            hw("idle-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND),
            hw("ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES),
            sw("cpu-clock", PERF_COUNT_SW_CPU_CLOCK), sw("task-clock", PERF_COUNT_SW_TASK_CLOCK),
            sw("page-faults", PERF_COUNT_SW_PAGE_FAULTS), sw("faults", PERF_COUNT_SW_PAGE_FAULTS),
            sw("context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES), sw("cs", PERF_COUNT_SW_CONTEXT_SWITCHES),
            sw("cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS), sw("migrations", PERF_COUNT_SW_CPU_MIGRATIONS),
            sw("minor-faults", PERF_COUNT_SW_PAGE_FAULTS_MIN), sw("major-faults", PERF_COUNT_SW_PAGE_FAULTS_MAJ),
            sw("alignment-faults", PERF_COUNT_SW_ALIGNMENT_FAULTS), sw("emulation-faults", PERF_COUNT_SW_EMULATION_FAULTS),
            sw("dummy", PERF_COUNT_SW_DUMMY), sw("bpf-output", PERF_COUNT_SW_BPF_OUTPUT),
            sw("cgroup-switches", PERF_COUNT_SW_CGROUP_SWITCHES));

    private static Map.Entry<String, long[]> hw(String name, int config) {
        return Map.entry(name, new long[] {PERF_TYPE_HARDWARE, config});
    }

    private static Map.Entry<String, long[]> sw(String name, int config) {
        return Map.entry(name, new long[] {PERF_TYPE_SOFTWARE, config});
    }

    /** The AMD CPUs of perf 6.1's arch_evsel__fixup_new_cycles (cpuid "AuthenticAMD,..."). */
    private static final String AMD = "AuthenticAMD";

    /**
     * perf's default event (evsel__new_cycles): {@code cycles} at the highest precise_ip the PMU
     * takes, exclude_guest as for any event except on AMD (whose precise cycles are IBS, which
     * cannot filter guests), user space only when the kernel cannot be profiled.
     */
    public static EventSpec defaultEvent() {
        boolean kernel = Privileges.canProfileKernel();
        long exclude = (isAmd() ? 0 : FLAG_EXCLUDE_GUEST) | (kernel ? 0 : FLAG_EXCLUDE_KERNEL);
        return new EventSpec(kernel ? "cycles" : "cycles:u", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, exclude, 3,
                true);
    }

    /**
     * Parses {@code name[:modifiers]} (modifiers u, k, h, p, P as in perf); an unknown name or
     * modifier is an {@link IllegalArgumentException} naming it. The name is kept as given.
     */
    public static EventSpec parse(String spec) {
        String s = spec.strip();
        int colon = s.indexOf(':');
        String base = (colon < 0 ? s : s.substring(0, colon)).toLowerCase(Locale.ROOT);
        long[] tc = NAMES.get(base);
        if (tc == null) {
            throw new IllegalArgumentException("unknown event '" + spec + "' (known: software events such as cpu-clock, "
                    + "task-clock, page-faults, context-switches; hardware events such as cycles, instructions)");
        }
        if (colon < 0) {
            return new EventSpec(s, (int) tc[0], tc[1], FLAG_EXCLUDE_GUEST, 0, false);
        }
        long exclude = 0;
        int precise = 0;
        boolean preciseMax = false;
        boolean u = false;
        boolean k = false;
        boolean h = false;
        boolean guest = false;
        for (char c : s.substring(colon + 1).toCharArray()) {
            switch (c) {
                case 'u' -> {
                    u = true;
                    guest = true;
                }
                case 'k' -> k = true;
                case 'h' -> h = true;
                case 'p' -> {
                    precise = Math.min(3, precise + 1);
                    guest = true; // precise sampling needs exclude_guest
                }
                case 'P' -> preciseMax = true;
                default -> throw new IllegalArgumentException("unknown modifier '" + c + "' in event '" + spec + "'");
            }
        }
        if (u || k || h) {
            exclude = (u ? 0 : FLAG_EXCLUDE_USER) | (k ? 0 : FLAG_EXCLUDE_KERNEL) | (h ? 0 : FLAG_EXCLUDE_HV);
        }
        return new EventSpec(s, (int) tc[0], tc[1], exclude | (guest ? FLAG_EXCLUDE_GUEST : 0),
                preciseMax ? 3 : precise, preciseMax);
    }

    /**
     * What perf 6.1 opens instead of {@code cycles} when the PMU lacks it (evsel__fallback):
     * cpu-clock with the same exclude bits and precise_ip (the software clock ignores it), named
     * as perf names an event from its attr; null for any other event.
     */
    public EventSpec softwareFallback() {
        if (type != PERF_TYPE_HARDWARE || config != PERF_COUNT_HW_CPU_CYCLES) {
            return null;
        }
        return new EventSpec("cpu-clock" + modifiers(excludeFlags, preciseIp), PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK,
                excludeFlags, preciseIp, preciseMax);
    }

    /**
     * What perf 6.1 opens instead when the kernel refuses this event with EACCES under
     * perf_event_paranoid above 1 (evsel__fallback): the same event without kernel and hypervisor
     * samples, named with {@code u} appended ({@code cpu-clock:u}, {@code dummy:HGu}); null when it
     * already excludes the kernel or excludes user space (nothing is left to fall back to).
     */
    public EventSpec userOnlyFallback() {
        if ((excludeFlags & (FLAG_EXCLUDE_KERNEL | FLAG_EXCLUDE_USER)) != 0) {
            return null;
        }
        String sep = name.indexOf('/') >= 0 || name.indexOf(':') >= 0 ? "" : ":";
        return new EventSpec(name + sep + "u", type, config, excludeFlags | FLAG_EXCLUDE_KERNEL | FLAG_EXCLUDE_HV,
                preciseIp, preciseMax);
    }

    /**
     * This event as perf 6.1's evsel__config leaves it for {@code --all-user} (exclude_kernel set,
     * exclude_user cleared) or {@code --all-kernel} (the reverse), the other bits and the name kept;
     * itself when neither is asked.
     */
    public EventSpec withContexts(boolean allUser, boolean allKernel) {
        if (!allUser && !allKernel) {
            return this;
        }
        long exclude = allUser ? (excludeFlags | FLAG_EXCLUDE_KERNEL) & ~FLAG_EXCLUDE_USER
                : (excludeFlags | FLAG_EXCLUDE_USER) & ~FLAG_EXCLUDE_KERNEL;
        return new EventSpec(name, type, config, exclude, preciseIp, preciseMax);
    }

    /** This event with another precise_ip (perf lowers it one by one for precise_max). */
    public EventSpec withPreciseIp(int precise) {
        return new EventSpec(name, type, config, excludeFlags, precise, preciseMax);
    }

    /**
     * The modifiers perf prints after an event named from its attr (evsel__add_modifiers): k, u,
     * h for the contexts kept when any is excluded, one p per precise_ip level, then H and G when
     * exclude_guest is not what those imply by default.
     */
    static String modifiers(long exclude, int precise) {
        StringBuilder b = new StringBuilder();
        boolean guestDefault = false;
        if ((exclude & (FLAG_EXCLUDE_USER | FLAG_EXCLUDE_KERNEL | FLAG_EXCLUDE_HV)) != 0) {
            keep(b, exclude, FLAG_EXCLUDE_KERNEL, 'k');
            keep(b, exclude, FLAG_EXCLUDE_USER, 'u');
            keep(b, exclude, FLAG_EXCLUDE_HV, 'h');
            guestDefault = true;
        }
        if (precise > 0) {
            b.append("ppp", 0, Math.min(3, precise));
            guestDefault = true;
        }
        boolean excludeGuest = (exclude & FLAG_EXCLUDE_GUEST) != 0;
        if ((exclude & FLAG_EXCLUDE_HOST) != 0 || excludeGuest == guestDefault) {
            keep(b, exclude, FLAG_EXCLUDE_HOST, 'H');
            keep(b, exclude, FLAG_EXCLUDE_GUEST, 'G');
        }
        return b.length() == 0 ? "" : ":" + b;
    }

    private static void keep(StringBuilder b, long exclude, long flag, char c) {
        if ((exclude & flag) == 0) {
            b.append(c);
        }
    }

    private static boolean isAmd() {
        return AMD.equals(HeaderFeatures.cpuinfo().get("vendor_id"));
    }
}
