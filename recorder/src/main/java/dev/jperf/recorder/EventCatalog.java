package dev.jperf.recorder;

import static dev.jperf.format.header.PerfEventAttr.FLAG_DISABLED;
import static dev.jperf.format.header.PerfEventAttr.FLAG_EXCLUDE_KERNEL;
import static dev.jperf.format.header.PerfEventAttr.PERF_TYPE_HARDWARE;
import static dev.jperf.format.header.PerfEventAttr.PERF_TYPE_HW_CACHE;
import static dev.jperf.format.header.PerfEventAttr.PERF_TYPE_SOFTWARE;

import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.PerfEventOpen;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

/**
 * The events this machine offers, as {@code perf list} (util/print-events.c of perf 6.1) finds and
 * names them: hardware, software and hardware cache events the kernel opens for this thread (perf's
 * is_event_supported, retried for user space only where paranoia refuses the kernel), perf's tool
 * events, each PMU's sysfs event aliases, and tracefs' tracepoints. Each kind's names sorted, as perf
 * prints them.
 */
public final class EventCatalog {
    /** One line of the list: the name (with " OR alias") and perf's kind in brackets. */
    public record Entry(String name, String kind) {
        /** perf's "  %-50s [%s]". */
        public String line() {
            return String.format("  %-50s [%s]", name, kind);
        }
    }

    private static final String[][] HARDWARE = {
        {"cpu-cycles", "cycles"}, {"instructions", ""}, {"cache-references", ""}, {"cache-misses", ""},
        {"branch-instructions", "branches"}, {"branch-misses", ""}, {"bus-cycles", ""},
        {"stalled-cycles-frontend", "idle-cycles-frontend"}, {"stalled-cycles-backend", "idle-cycles-backend"},
        {"ref-cycles", ""}};
    private static final String[][] SOFTWARE = {
        {"cpu-clock", ""}, {"task-clock", ""}, {"page-faults", "faults"}, {"context-switches", "cs"},
        {"cpu-migrations", "migrations"}, {"minor-faults", ""}, {"major-faults", ""}, {"alignment-faults", ""},
        {"emulation-faults", ""}, {"dummy", ""}, {"bpf-output", ""}, {"cgroup-switches", ""}};
    private static final String[] TOOL = {"duration_time", "user_time", "system_time"};
    /** evsel__hw_cache, evsel__hw_cache_op (name and plural), evsel__hw_cache_result, evsel__hw_cache_stat. */
    private static final String[] CACHE = {"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node"};
    private static final String[][] CACHE_OP = {{"load", "loads"}, {"store", "stores"}, {"prefetch", "prefetches"}};
    private static final String[] CACHE_RESULT = {"refs", "misses"};
    private static final int[] CACHE_OPS = {0b111, 0b101, 0b111, 0b111, 0b001, 0b001, 0b111};

    private EventCatalog() {
    }

    /** Supported hardware events, sorted. */
    public static List<Entry> hardware() {
        return symbols(PERF_TYPE_HARDWARE, HARDWARE, "Hardware event");
    }

    /** Supported software events, sorted. */
    public static List<Entry> software() {
        return symbols(PERF_TYPE_SOFTWARE, SOFTWARE, "Software event");
    }

    /** perf's tool events, in perf's order. */
    public static List<Entry> tool() {
        List<Entry> out = new ArrayList<>();
        for (String t : TOOL) {
            out.add(new Entry(t, "Tool event"));
        }
        return out;
    }

    /** Supported hardware cache events (type-op-result), sorted. */
    public static List<Entry> cache() {
        List<String> names = new ArrayList<>();
        for (int type = 0; type < CACHE.length; type++) {
            for (int op = 0; op < CACHE_OP.length; op++) {
                if ((CACHE_OPS[type] & (1 << op)) == 0) {
                    continue;
                }
                for (int result = 0; result < CACHE_RESULT.length; result++) {
                    if (supported(PERF_TYPE_HW_CACHE, type | ((long) op << 8) | ((long) result << 16))) {
                        names.add(result == 0 ? CACHE[type] + "-" + CACHE_OP[op][1]
                                : CACHE[type] + "-" + CACHE_OP[op][0] + "-" + CACHE_RESULT[result]);
                    }
                }
            }
        }
        return sorted(names, "Hardware cache event");
    }

    /** Every PMU's sysfs event aliases as "pmu/event/", sorted ({@code devices}: /sys/bus/event_source/devices). */
    public static List<Entry> pmuEvents(Path devices) {
        List<String> names = new ArrayList<>();
        for (Path pmu : list(devices)) {
            for (Path event : list(pmu.resolve("events"))) {
                String e = event.getFileName().toString();
                // the files beside an alias describe it
                if (e.endsWith(".scale") || e.endsWith(".unit") || e.endsWith(".per-pkg") || e.endsWith(".snapshot")) {
                    continue;
                }
                names.add(pmu.getFileName() + "/" + e + "/");
            }
        }
        return sorted(names, "Kernel PMU event");
    }

    /** The raw event descriptors and the breakpoint syntax perf always lists. */
    public static List<Entry> syntax() {
        return List.of(new Entry("rNNN", "Raw hardware event descriptor"),
                new Entry("cpu/t1=v1[,t2=v2,t3 ...]/modifier", "Raw hardware event descriptor"),
                new Entry("mem:<addr>[/len][:access]", "Hardware breakpoint"));
    }

    /** Tracefs' tracepoints as "system:event" (an event directory with an id), sorted; none when unreadable. */
    public static List<Entry> tracepoints(Path tracefsEvents) {
        List<String> names = new ArrayList<>();
        for (Path sys : list(tracefsEvents)) {
            for (Path event : list(sys)) {
                if (Files.isRegularFile(event.resolve("id"))) {
                    names.add(sys.getFileName() + ":" + event.getFileName());
                }
            }
        }
        return sorted(names, "Tracepoint event");
    }

    /**
     * The SDT events of the binaries in the build-id cache (each entry's {@code probes}, written by
     * perf when it caches a binary with SDT notes), as print_sdt_events lists them: sorted by name
     * and build-id, a name two binaries share shown as {@code NAME@PATH(BUILD-ID)}; {@code group}
     * and {@code event} filter by glob (null: all).
     */
    public static List<Entry> sdt(BuildIdCache cache, java.util.function.Predicate<String> group,
            java.util.function.Predicate<String> event) {
        List<String[]> found = new ArrayList<>(); // {group:event, build-id, original path}
        List<BuildIdCache.Cached> entries;
        try {
            entries = cache.list();
        } catch (IOException e) {
            return List.of();
        }
        for (BuildIdCache.Cached c : entries) {
            List<String> lines;
            try {
                lines = Files.readAllLines(cache.entryDir(c).resolve("probes"));
            } catch (IOException | RuntimeException e) {
                continue;
            }
            for (String l : lines) {
                int colon = l.indexOf(':');
                int eq = l.indexOf('=');
                if (!l.startsWith("%sdt_") || colon < 0 || eq < colon) {
                    continue;
                }
                String g = l.substring(1, colon);
                String e = l.substring(colon + 1, eq);
                if (group.test(g) && event.test(e)) {
                    found.add(new String[] {g + ":" + e, c.buildId(), c.name()});
                }
            }
        }
        found.sort((a, b) -> (a[0] + "@" + a[1]).compareTo(b[0] + "@" + b[1]));
        List<Entry> out = new ArrayList<>();
        for (int i = 0; i < found.size(); i++) {
            String[] f = found.get(i);
            boolean shared = (i > 0 && found.get(i - 1)[0].equals(f[0])) || (i + 1 < found.size() && found.get(i + 1)[0].equals(f[0]));
            out.add(new Entry(shared ? f[0] + "@" + f[2] + "(" + f[1].substring(0, Math.min(12, f[1].length())) + ")" : f[0],
                    "SDT event"));
        }
        // the same name and build-id twice is one line (perf's strlist keeps one)
        List<Entry> unique = new ArrayList<>();
        for (Entry e : out) {
            if (unique.isEmpty() || !unique.get(unique.size() - 1).equals(e)) {
                unique.add(e);
            }
        }
        return unique;
    }

    /** The events directory of the tracefs perf would use: /sys/kernel/tracing, else debugfs' tracing. */
    public static Path tracefsEvents() {
        Path tracing = Path.of("/sys/kernel/tracing/events");
        return Files.isDirectory(tracing) ? tracing : Path.of("/sys/kernel/debug/tracing/events");
    }

    private static List<Entry> symbols(int type, String[][] table, String kind) {
        List<String> names = new ArrayList<>();
        for (int config = 0; config < table.length; config++) {
            if (supported(type, config)) {
                names.add(table[config][1].isEmpty() ? table[config][0] : table[config][0] + " OR " + table[config][1]);
            }
        }
        return sorted(names, kind);
    }

    private static List<Entry> sorted(List<String> names, String kind) {
        Collections.sort(names);
        List<Entry> out = new ArrayList<>(names.size());
        for (String n : names) {
            out.add(new Entry(n, kind));
        }
        return out;
    }

    /** The directories in {@code dir}, sorted; none when it cannot be read. */
    private static List<Path> list(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        } catch (IOException | SecurityException e) {
            return List.of();
        }
    }

    /** perf's is_event_supported: the event opens, disabled, on this thread (user space only after EACCES). */
    static boolean supported(int type, long config) {
        for (long flags : new long[] {FLAG_DISABLED, FLAG_DISABLED | FLAG_EXCLUDE_KERNEL}) {
            ByteBuffer attr = ByteBuffer.wrap(PerfEvents.attr(type, config, 0, 0, flags, 0));
            try {
                Fd.close(PerfEventOpen.open(attr, 0, -1, -1, 0, "event"));
                return true;
            } catch (NativeException e) {
                if (e.errno() != Errno.EACCES) {
                    return false;
                }
            }
        }
        return false;
    }
}
