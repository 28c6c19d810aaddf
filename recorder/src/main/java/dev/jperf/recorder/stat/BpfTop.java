package dev.jperf.recorder.stat;

import dev.jperf.recorder.StopSignals;
import dev.jperf.format.json.JsonWriter;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.Poll;
import dev.jperf.nativeshim.Terminal;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code jperf bpf top}: what every loaded BPF program costs, like bpftop: per program runs per
 * second, average ns per run and the share of a CPU its runs took over the last interval, from
 * the kernel's BPF statistics (held on for this process while it runs). Programs are listed each
 * interval by id (BPF_PROG_GET_NEXT_ID), so those loaded meanwhile appear from their second
 * sample on and those unloaded drop out; each is held only for the moment its counters are read.
 * Names are report's: the BTF name of the main function, else prog_name.
 *
 * <p>Three outputs: a live table in a terminal (keys sort it; q quits), a plain table per
 * interval otherwise, and one JSON object per interval ({@code --json}).
 */
public final class BpfTop implements StopSignals.Stoppable {
    /** Sort keys: their letter in the live view, their column. */
    public enum Sort {
        CPU('c'), RUNS('r'), AVG('a'), ID('i'), NAME('n'), TYPE('t');

        final char key;

        Sort(char key) {
            this.key = key;
        }

        /** The key named {@code name} (cpu, runs, avg, id, name, type). */
        public static Sort of(String name) {
            for (Sort s : values()) {
                if (s.name().equalsIgnoreCase(name)) {
                    return s;
                }
            }
            throw new IllegalArgumentException("unknown sort key '" + name + "' (cpu, runs, avg, id, name, type)");
        }
    }

    /**
     * @param delayNs    the interval
     * @param sort       the order of the rows
     * @param json       one JSON object per interval
     * @param iterations stop after so many intervals (0: until q or a signal)
     * @param live       a live view in the terminal on stdin/stdout
     */
    public record Options(long delayNs, Sort sort, boolean json, int iterations, boolean live) {}

    /** One program's share of an interval. */
    record Line(BpfProgram program, long runs, long runTimeNs, double seconds) {
        double runsPerSecond() {
            return runs / seconds;
        }

        double avgNs() {
            return runs > 0 ? (double) runTimeNs / runs : 0;
        }

        double cpuPercent() {
            return 100.0 * runTimeNs / (seconds * 1e9);
        }
    }

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);

    private final Options options;
    private final PrintStream out;
    private final Bpf bpf = new Bpf();
    /** What each id was when first seen (the name needs its BTF: fetched once). */
    private final Map<Integer, BpfProgram> known = new HashMap<>();
    private Sort sort;
    private volatile boolean stopRequested;

    public BpfTop(Options options, PrintStream out) {
        this.options = options;
        this.out = out;
        this.sort = options.sort();
    }

    public void requestStop() {
        stopRequested = true;
    }

    /** Runs until done; SIGINT and SIGTERM end it (and restore the terminal). */
    public void runWithSignals() throws IOException, InterruptedException {
        StopSignals.install(this);
        run(System.in);
    }

    public void run(InputStream keys) throws IOException, InterruptedException {
        try (BpfStatsSession stats = BpfStatsSession.enable(bpf)) {
            if (!options.live()) {
                loop(null, null);
                return;
            }
            try (Terminal t = Terminal.characterMode(0)) {
                out.print("\033[?1049h\033[?25l"); // the alternate screen, no cursor
                try {
                    loop(t, keys);
                } finally {
                    out.print("\033[?25h\033[?1049l");
                    out.flush();
                }
            }
        }
    }

    private void loop(Terminal terminal, InputStream keys) throws IOException, InterruptedException {
        Map<Integer, long[]> last = sample();
        long lastTime = System.nanoTime();
        List<Line> lines = List.of();
        Poll stdin = terminal != null ? new Poll(new int[] {0}, Poll.POLLIN) : null;
        for (int n = 0; options.iterations() == 0 || n < options.iterations(); n++) {
            long next = lastTime + options.delayNs();
            while (!stopRequested) {
                long now = System.nanoTime();
                if (now >= next) {
                    break;
                }
                int waitMs = (int) Math.max(1, Math.min((next - now) / 1_000_000, 100));
                if (stdin == null) {
                    Thread.sleep(waitMs);
                } else if (stdin.poll(waitMs) > 0 && keys.available() > 0 && key(keys.read())) {
                    draw(lines, terminal); // resorted at once
                }
            }
            if (stopRequested) {
                return;
            }
            Map<Integer, long[]> cur = sample();
            long now = System.nanoTime();
            double seconds = (now - lastTime) / 1e9;
            lines = lines(last, cur, seconds);
            last = cur;
            lastTime = now;
            if (options.json()) {
                out.println(json(lines, seconds, System.currentTimeMillis() / 1000.0));
            } else if (terminal != null) {
                draw(lines, terminal);
            } else {
                out.print(table(lines, Integer.MAX_VALUE, Integer.MAX_VALUE));
            }
            out.flush();
        }
    }

    /** A key of the live view: a sort letter (redraw) or q (quit). */
    private boolean key(int c) {
        if (c == 'q' || c == 'Q') {
            stopRequested = true;
            return false;
        }
        for (Sort s : Sort.values()) {
            if (c == s.key) {
                sort = s;
                return true;
            }
        }
        return false;
    }

    /** {run_time_ns, run_cnt} of every loaded program by id; names of new ones looked up once. */
    Map<Integer, long[]> sample() {
        Map<Integer, long[]> m = new HashMap<>();
        for (int id = bpf.progGetNextId(0); id != 0; id = bpf.progGetNextId(id)) {
            int fd = bpf.progGetFdByIdOrErrno(id);
            if (fd < 0) {
                continue; // unloaded since the id was listed
            }
            try {
                if (!known.containsKey(id)) {
                    known.put(id, BpfProgram.describe(bpf, id, fd));
                }
                m.put(id, BpfProgram.runCounters(bpf, fd));
            } catch (NativeException e) {
                // gone while it was read: it drops out
            } finally {
                Fd.close(fd);
            }
        }
        known.keySet().retainAll(m.keySet());
        return m;
    }

    /** The programs sampled both times, with what they did in between, sorted. */
    List<Line> lines(Map<Integer, long[]> from, Map<Integer, long[]> to, double seconds) {
        List<Line> lines = new ArrayList<>();
        for (Map.Entry<Integer, long[]> e : to.entrySet()) {
            long[] before = from.get(e.getKey());
            BpfProgram p = known.get(e.getKey());
            if (before != null && p != null) {
                lines.add(new Line(p, e.getValue()[1] - before[1], e.getValue()[0] - before[0], seconds));
            }
        }
        lines.sort(comparator(sort));
        return lines;
    }

    private static Comparator<Line> comparator(Sort sort) {
        Comparator<Line> byId = Comparator.comparingInt(l -> l.program().id());
        Comparator<Line> c = switch (sort) {
            case CPU -> Comparator.comparingLong(Line::runTimeNs).reversed();
            case RUNS -> Comparator.comparingLong(Line::runs).reversed();
            case AVG -> Comparator.comparingDouble(Line::avgNs).reversed();
            case ID -> byId;
            case NAME -> Comparator.comparing(l -> l.program().name());
            case TYPE -> Comparator.comparing(l -> l.program().typeName());
        };
        return c.thenComparing(byId);
    }

    private void draw(List<Line> lines, Terminal terminal) {
        int[] size = Terminal.size(1);
        int rows = size == null ? 24 : size[0];
        int cols = size == null ? 80 : size[1];
        lines = new ArrayList<>(lines);
        lines.sort(comparator(sort));
        out.print("\033[H\033[2J" + table(lines, rows - 1, cols));
        out.flush();
    }

    /** The header and up to {@code maxRows - 4} program rows, each cut at {@code cols}. */
    String table(List<Line> lines, int maxRows, int cols) {
        double cpu = 0;
        for (Line l : lines) {
            cpu += l.cpuPercent();
        }
        StringBuilder b = new StringBuilder();
        row(b, cols, String.format(Locale.ROOT, "jperf bpf top - %s  programs: %d  BPF CPU: %.2f%%  interval: %.1f s"
                + "  sort: %s%s", LocalTime.now().format(CLOCK), lines.size(), cpu, options.delayNs() / 1e9,
                sort.name().toLowerCase(Locale.ROOT), options.live() ? "  (keys c r a i n t sort, q quits)" : ""));
        row(b, cols, "");
        row(b, cols, String.format(Locale.ROOT, "%7s %-16s %-24s %12s %12s %7s %14s", "ID", "TYPE", "NAME", "RUNS/S",
                "AVG NS/RUN", "CPU %", "RUNS"));
        int shown = 0;
        for (Line l : lines) {
            if (shown++ >= maxRows - 4) {
                break;
            }
            row(b, cols, String.format(Locale.ROOT, "%7d %-16s %-24s %12.1f %12.1f %7.2f %14d", l.program().id(),
                    l.program().typeName(), l.program().name(), l.runsPerSecond(), l.avgNs(), l.cpuPercent(), l.runs()));
        }
        return b.append('\n').toString();
    }

    private static void row(StringBuilder b, int cols, String s) {
        b.append(s.length() > cols ? s.substring(0, cols) : s).append('\n');
    }

    /** One interval as a JSON object: its time and length, and the programs as bpftool names their fields. */
    static String json(List<Line> lines, double seconds, double time) {
        JsonWriter jw = new JsonWriter(new StringBuilder()).spaced(true).standard(true);
        jw.startObject();
        jw.name("time");
        jw.raw(String.format(Locale.ROOT, "%.3f", time));
        jw.name("interval_s");
        jw.raw(String.format(Locale.ROOT, "%.6f", seconds));
        jw.name("programs");
        jw.startArray();
        for (Line l : lines) {
            jw.startObject();
            jw.intField("id", l.program().id());
            jw.stringField("type", l.program().typeName());
            jw.stringField("name", l.program().name());
            jw.intField("run_cnt", l.runs());
            jw.intField("run_time_ns", l.runTimeNs());
            jw.name("runs_per_sec");
            jw.raw(String.format(Locale.ROOT, "%.3f", l.runsPerSecond()));
            jw.name("avg_ns_per_run");
            jw.raw(String.format(Locale.ROOT, "%.3f", l.avgNs()));
            jw.name("cpu_percent");
            jw.raw(String.format(Locale.ROOT, "%.4f", l.cpuPercent()));
            jw.endObject();
        }
        jw.endArray();
        jw.endObject();
        return jw.out().toString();
    }
}
