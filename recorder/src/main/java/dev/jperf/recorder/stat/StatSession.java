package dev.jperf.recorder.stat;

import static dev.jperf.format.header.PerfEventAttr.FLAG_EXCLUDE_GUEST;
import static dev.jperf.format.header.PerfEventAttr.PERF_TYPE_HW_CACHE;

import dev.jperf.recorder.StopSignals;
import dev.jperf.format.header.CpuList;
import dev.jperf.format.header.SystemCpus;
import dev.jperf.format.writer.ReplacingFile;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.Mount;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.ResourceUsage;
import dev.jperf.recorder.EventSpec;
import dev.jperf.recorder.Workload;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code jperf stat}: perf stat's counting mode. Opens the events (no ring buffer), starts the
 * workload stopped before its exec (counters enabled at the exec, as perf's enable_on_exec),
 * waits for it, a signal, {@code --timeout} or the targets' end, printing deltas every {@code -I}
 * and the totals (means over {@code -r} runs) at the end, in perf 6.1's layouts. With {@code -b}
 * it counts BPF programs' runs and run time instead ({@link ProgramStat}).
 */
public final class StatSession implements StopSignals.Stoppable {
    /** How long a wait lasts at most before the stop flag and the targets are checked again. */
    private static final long POLL_NS = 100_000_000L;

    private final StatOptions options;
    private final PrintStream err;
    private volatile boolean stopRequested;
    /** The last waitLoop printed every --interval-count interval. */
    private boolean intervalsDone;
    /** Each event's group leader (its own index when alone), as {@link #parseGroups} gives them */
    private int[] leaders;
    /** The rows of an aggregation mode (-A, --per-*) for the current run's CPUs and threads; null: global */
    private Aggregation aggregation;

    /** @param err where perf stat prints (stderr), unless {@code -o} names a file */
    public StatSession(StatOptions options, PrintStream err) {
        this.options = options;
        this.err = err;
    }

    /** Asks the counting to stop (signal handlers, tests). */
    public void requestStop() {
        stopRequested = true;
    }

    /** perf stat's default events (builtin-stat.c default_attrs0/1): cpu-clock instead of task-clock per CPU. */
    static List<EventSpec> defaultEvents(boolean systemWide) {
        List<String> names = new ArrayList<>(List.of(systemWide ? "cpu-clock" : "task-clock", "context-switches",
                "cpu-migrations", "page-faults", "cycles"));
        // added only where the CPU PMU lists them (pmu_have_event("cpu", ...))
        for (String stalled : List.of("stalled-cycles-frontend", "stalled-cycles-backend")) {
            if (Files.exists(Path.of("/sys/bus/event_source/devices/cpu/events", stalled))) {
                names.add(stalled);
            }
        }
        names.addAll(List.of("instructions", "branches", "branch-misses"));
        List<EventSpec> specs = new ArrayList<>();
        for (String n : names) {
            specs.add(EventSpec.parse(n));
        }
        return specs;
    }

    /**
     * {@code -d}'s hardware cache events (builtin-stat.c detailed_attrs, very_detailed_attrs,
     * very_very_detailed_attrs: one more list per {@code -d}), appended to the others.
     */
    static List<EventSpec> detailedEvents(int level) {
        // PERF_COUNT_HW_CACHE_{L1D, L1I, LL, DTLB, ITLB} | op (READ 0, PREFETCH 2) << 8 | result (ACCESS 0, MISS 1) << 16
        Object[][] lists = {
            {"L1-dcache-loads", 0x0L, "L1-dcache-load-misses", 0x10000L, "LLC-loads", 0x2L, "LLC-load-misses", 0x10002L},
            {"L1-icache-loads", 0x1L, "L1-icache-load-misses", 0x10001L, "dTLB-loads", 0x3L, "dTLB-load-misses", 0x10003L,
                "iTLB-loads", 0x4L, "iTLB-load-misses", 0x10004L},
            {"L1-dcache-prefetches", 0x200L, "L1-dcache-prefetch-misses", 0x10200L}};
        List<EventSpec> specs = new ArrayList<>();
        for (int l = 0; l < Math.min(level, lists.length); l++) {
            for (int i = 0; i < lists[l].length; i += 2) {
                specs.add(new EventSpec((String) lists[l][i], PERF_TYPE_HW_CACHE, (Long) lists[l][i + 1], FLAG_EXCLUDE_GUEST,
                        0, false));
            }
        }
        return specs;
    }

    /** The {@code -e} lists as events (groups flattened); an unknown one is an {@link IllegalArgumentException} naming it. */
    public static List<EventSpec> parseEvents(List<String> lists) {
        return parseGroups(lists, false).specs();
    }

    /**
     * The events and their groups: {@code leaders[i]} is the index of event i's group leader (i
     * itself when alone or leading).
     */
    record Groups(List<EventSpec> specs, int[] leaders) {}

    /**
     * The {@code -e} lists with perf's event groups: {@code {a,b}} (its modifiers, {@code {a,b}:u},
     * apply to each member, whose name stays as written, as perf names them), or every event in one
     * group with {@code -g}.
     */
    static Groups parseGroups(List<String> lists, boolean groupAll) {
        List<EventSpec> specs = new ArrayList<>();
        List<Integer> leaders = new ArrayList<>();
        for (String list : lists) {
            for (String token : splitOutsideBraces(list, ',')) {
                if (token.isBlank()) {
                    continue;
                }
                String t = token.strip();
                if (!t.startsWith("{")) {
                    leaders.add(specs.size());
                    specs.add(EventSpec.parse(t));
                    continue;
                }
                int close = t.lastIndexOf('}');
                if (close < 0 || (close + 1 < t.length() && t.charAt(close + 1) != ':')) {
                    throw new IllegalArgumentException("event syntax error: '" + t + "'");
                }
                String modifiers = close + 1 < t.length() ? t.substring(close + 2) : "";
                int leader = specs.size();
                for (String member : splitOutsideBraces(t.substring(1, close), ',')) {
                    if (member.isBlank()) {
                        continue;
                    }
                    String m = member.strip();
                    EventSpec spec = EventSpec.parse(modifiers.isEmpty() ? m : m + (m.indexOf(':') < 0 ? ":" : "") + modifiers);
                    leaders.add(leader);
                    specs.add(new EventSpec(m, spec.type(), spec.config(), spec.excludeFlags(), spec.preciseIp(),
                            spec.preciseMax()));
                }
            }
        }
        int[] l = toArray(leaders);
        if (groupAll) {
            java.util.Arrays.fill(l, 0);
        }
        return new Groups(specs, l);
    }

    private static List<String> splitOutsideBraces(String s, char sep) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int from = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}') {
                depth--;
            } else if (c == sep && depth == 0) {
                parts.add(s.substring(from, i));
                from = i + 1;
            }
        }
        parts.add(s.substring(from));
        return parts;
    }

    /** Counts until done; SIGINT and SIGTERM stop it and print what was counted, as perf's do. */
    public int runWithSignals() throws IOException, InterruptedException {
        StopSignals.install(this);
        return run();
    }

    /**
     * Counts and prints; returns the (last) workload's exit code, 0 without one. A {@code -o} file
     * replaces the previous one only when the counts were printed: a failure leaves it as it was.
     */
    public int run() throws IOException, InterruptedException {
        PrintStream out = err;
        ReplacingFile file = null;
        OutputStream appended = null;
        if (options.quiet()) {
            // perf opens no -o file then, and leaves an existing one as it was
            out = new PrintStream(OutputStream.nullOutputStream());
        } else if (options.output() != null) {
            if (options.append()) {
                appended = new FileOutputStream(options.output().toFile(), true);
                out = new PrintStream(appended, false, "UTF-8");
            } else {
                file = ReplacingFile.create(options.output());
                out = new PrintStream(file.stream(), false, "UTF-8");
            }
            // perf's "# started on" line: ctime(3)'s layout
            out.print("# started on " + DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.ROOT)
                    .format(ZonedDateTime.now()) + "\n\n");
        } else if (options.logFd() > 0) {
            out = new PrintStream(new FdStream(options.logFd()), false, "UTF-8");
        }
        try {
            int exit = options.bpfIds() != null ? new ProgramStat(this, options, err).run(out) : runEvents(out);
            if (file != null || appended != null) {
                if (out.checkError()) {
                    throw new IOException("cannot write " + options.output());
                }
                if (file != null) {
                    file.commit();
                }
            }
            return exit;
        } finally {
            out.flush();
            if (file != null) {
                file.close();
            }
            if (appended != null) {
                appended.close();
            }
        }
    }

    /** {@code --log-fd}: an fd the shell opened for jperf, written as perf's fdopen'd stream writes it. */
    private static final class FdStream extends OutputStream {
        private final int fd;

        FdStream(int fd) {
            this.fd = fd;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            Fd.write(fd, java.util.Arrays.copyOfRange(b, off, off + len), "--log-fd " + fd);
        }
    }

    /** system(3): {@code command} by /bin/sh on jperf's stdin, stdout and stderr; its exit status. */
    private static int shell(String command) throws IOException, InterruptedException {
        return new ProcessBuilder("/bin/sh", "-c", command).inheritIO().start().waitFor();
    }

    /** perf's "Failed opening logfd" check: null when {@code fd} can be written, else why not (strerror's text). */
    public static String logFdError(int fd) {
        try {
            Fd.write(fd, new byte[0], "--log-fd " + fd);
            return null;
        } catch (NativeException e) {
            return Errno.text(e.errno());
        }
    }

    private int runEvents(PrintStream out) throws IOException, InterruptedException {
        // -n: perf adds no default events (add_default_attributes), the -e ones are counted
        Groups groups = options.events().isEmpty() ? null : parseGroups(options.events(), options.group());
        List<EventSpec> specs = groups == null
                ? options.nullRun() ? List.of() : defaultEvents(options.systemWide() || options.perThreadSystemWide())
                : groups.specs();
        if (options.detailed() > 0 && !options.nullRun()) {
            specs = new ArrayList<>(specs);
            specs.addAll(detailedEvents(options.detailed()));
        }
        if (options.allUser() || options.allKernel()) {
            List<EventSpec> contexts = new ArrayList<>();
            for (EventSpec spec : specs) {
                contexts.add(spec.withContexts(options.allUser(), options.allKernel()));
            }
            specs = contexts;
        }
        // each event's group leader: -e's groups, the default and -d's events alone; -g: all in one
        int[] leaders = new int[specs.size()];
        for (int i = 0; i < leaders.length; i++) {
            leaders[i] = options.group() ? 0 : groups != null && i < groups.leaders().length ? groups.leaders()[i] : i;
        }
        this.leaders = leaders;
        int unitWidth = 0;
        for (EventSpec s : specs) {
            unitWidth = Math.max(unitWidth, StatEvent.of(s, true).unit().length());
        }
        StatPrinter printer = new StatPrinter(out, options.json(), options.csvSeparator(), unitWidth, options.repeat(),
                options.aggr());
        int[] cpus = options.systemWide() ? cpus() : new int[] {-1};
        Stats wall = new Stats();
        // --table: each run's elapsed time
        double[] runSeconds = new double[options.repeat()];
        Stats[][] values = new Stats[specs.size()][];
        for (int i = 0; i < values.length; i++) {
            values[i] = new Stats[] {new Stats(), new Stats(), new Stats()};
        }
        List<StatEvent> events = null;
        ResourceUsage usage = null;
        Aggregation.Readings each = null;
        int exit = 0;
        for (int run = 0; run < options.repeat(); run++) {
            // run_perf_stat: a failing --pre skips the run; --post runs only after a workload that
            // succeeded; a failing one makes perf return system()'s status, which its exit code truncates to 0
            if (options.pre() != null && shell(options.pre()) != 0) {
                exit = 0;
                continue;
            }
            if (options.sync()) {
                Mount.sync();
            }
            RunResult r = runOnce(specs, cpus, printer);
            events = r.events();
            usage = r.usage();
            exit = r.exit();
            each = r.each();
            if (options.post() != null && exit == 0 && shell(options.post()) != 0) {
                exit = 0;
            }
            wall.update(r.wallNs());
            runSeconds[run] = r.wallNs() / 1e9;
            for (int i = 0; i < specs.size(); i++) {
                CounterValues raw = r.totals()[i] == null ? CounterValues.ZERO : r.totals()[i];
                CounterValues v = raw.scaled(options.scale());
                v = v == null ? new CounterValues(0, raw.ena(), raw.run()) : v;
                values[i][0].update(v.val());
                values[i][1].update(v.ena());
                values[i][2].update(v.run());
            }
            if (stopRequested) {
                break;
            }
        }
        if (events == null) {
            // never opened (every --pre failed): perf's counters are not supported then
            events = new ArrayList<>();
            for (EventSpec spec : specs) {
                events.add(StatEvent.of(spec, false));
            }
        }
        // --summary: the totals after the -I lines, -x's marked "summary" unless --no-csv-summary
        boolean totals = options.intervalMs() == 0 || options.summary();
        String summary = options.summary() && options.csvSummary() && printer.mode() == StatPrinter.Mode.CSV
                ? String.format(Locale.ROOT, "%16s%s", "summary", options.csvSeparator()) : null;
        if (totals && aggregation != null && each != null) {
            printer.header(target(), options.repeat());
            // perf aggregates the last run's counts; over several runs its spread is printed as 0
            printAggregated(printer, summary, events, each, wall.avg(), options.repeat() > 1 ? 0 : Double.NaN);
            printer.footer(wall, null, options.nullRun(), options.table() ? runSeconds : null);
        } else if (totals) {
            printer.header(target(), options.repeat());
            List<Row> rows = new ArrayList<>();
            ShadowStats shadow = new ShadowStats(wall.avg());
            List<CounterValues> means = new ArrayList<>();
            for (int i = 0; i < events.size(); i++) {
                CounterValues mean = new CounterValues(Math.round(values[i][0].avg()), Math.round(values[i][1].avg()),
                        Math.round(values[i][2].avg()));
                means.add(mean);
                if (events.get(i).supported() && mean.run() != 0) {
                    shadow.update(events.get(i), values[i][0].avg());
                }
            }
            for (int i = 0; i < events.size(); i++) {
                double noise = Stats.relStddev(values[i][0].stddev(), values[i][0].avg());
                rows.add(row(events.get(i), means.get(i), values[i][0].avg(), noise, shadow));
            }
            for (Row row : rows) {
                printer.row(summary, null, row);
            }
            boolean forked = !options.command().isEmpty() && !options.systemWide() && options.pids() == null
                    && options.tids() == null;
            printer.footer(wall, forked && options.repeat() == 1 ? usage : null, options.nullRun(),
                    options.table() ? runSeconds : null);
        }
        return exit;
    }

    /** One table row for an event whose (scaled, averaged) values are {@code v}, its count {@code count}. */
    static Row row(StatEvent e, CounterValues v, double count, double noise, ShadowStats shadow) {
        boolean fraction = Math.floor(e.scale()) != e.scale();
        if (!e.supported()) {
            return new Row(e.name(), e.unit(), fraction, false, null, 0, noise, Metric.NONE);
        }
        if (v.run() == 0 || v.ena() == 0) {
            return new Row(e.name(), e.unit(), fraction, true, v, 0, noise, Metric.NONE);
        }
        double value = count * e.scale();
        return new Row(e.name(), e.unit(), fraction, true, v, value, noise, shadow.metric(e, count, value));
    }

    /** Every interval's rows: the deltas since the last, over the interval's nominal length (as perf). */
    void printInterval(StatPrinter printer, long ns, List<StatEvent> events, CounterValues[] delta) {
        printer.intervalHeader(options.intervalClear());
        String prefix = printer.intervalPrefix(ns);
        ShadowStats shadow = new ShadowStats(options.intervalMs() * 1e6);
        CounterValues[] scaled = new CounterValues[delta.length];
        for (int i = 0; i < delta.length; i++) {
            if (delta[i] == null) {
                continue;
            }
            CounterValues s = delta[i].scaled(options.scale());
            scaled[i] = s == null ? delta[i] : s;
            if (s != null) {
                shadow.update(events.get(i), s.val());
            }
        }
        for (int i = 0; i < delta.length; i++) {
            CounterValues v = scaled[i] == null ? CounterValues.ZERO : scaled[i];
            printer.row(prefix, null, row(events.get(i), v, v.val(), Double.NaN, shadow));
        }
    }

    private void printAggregatedInterval(StatPrinter printer, long ns, List<StatEvent> events, Aggregation.Readings delta) {
        printer.intervalHeader(options.intervalClear());
        printAggregated(printer, printer.intervalPrefix(ns), events, delta, options.intervalMs() * 1e6, Double.NaN);
    }

    /**
     * The rows of an aggregation mode, each id's metrics from its own counts (perf keeps its
     * shadow stats per CPU, thread or id) over {@code wallNs}.
     */
    private void printAggregated(StatPrinter printer, String prefix, List<StatEvent> events, Aggregation.Readings r,
            double wallNs, double noise) {
        List<Aggregation.Cell> cells = aggregation.rows(events.size(), r);
        Map<String, ShadowStats> shadows = new HashMap<>();
        for (Aggregation.Cell c : cells) {
            ShadowStats shadow = shadows.get(c.id().label());
            if (shadow == null) {
                shadow = new ShadowStats(wallNs);
                shadows.put(c.id().label(), shadow);
            }
            CounterValues s = c.values().scaled(options.scale());
            if (s != null && events.get(c.event()).supported()) {
                shadow.update(events.get(c.event()), s.val());
            }
        }
        for (Aggregation.Cell c : cells) {
            CounterValues s = c.values().scaled(options.scale());
            CounterValues v = s == null ? c.values() : s;
            printer.row(prefix, c.id(), row(events.get(c.event()), v, v.val(), noise, shadows.get(c.id().label())));
        }
    }

    /** @param each the last counts per CPU and thread, in an aggregation mode (else null) */
    private record RunResult(List<StatEvent> events, CounterValues[] totals, long wallNs, ResourceUsage usage, int exit,
            Aggregation.Readings each) {}

    private RunResult runOnce(List<EventSpec> specs, int[] cpus, StatPrinter printer)
            throws IOException, InterruptedException {
        Workload workload = options.command().isEmpty() ? null : Workload.startStopped(options.command(), false);
        try {
            // bperf followers are switched on by jperf, not by the kernel at exec; nor are counters after -D
            boolean enableOnExec = workload != null && targetNone() && !options.bpfCounters() && options.delayMs() == 0;
            int[] threads = threads(workload);
            aggregation = options.aggr() == Aggr.GLOBAL ? null
                    : new Aggregation(options.aggr(), cpus, threads, options.perThreadSystemWide());
            try (Counters ev = options.bpfCounters() ? bperf(specs, cpus, threads, workload)
                    : CountingEvents.open(specs, leaders, cpus, threads, enableOnExec, !options.noInherit(),
                            options.perThreadSystemWide())) {
                ResourceUsage before = ResourceUsage.children();
                if (options.delayMs() == 0 && !enableOnExec) {
                    ev.enable();
                }
                if (workload != null) {
                    workload.go();
                }
                if (options.delayMs() != 0) {
                    delay(ev);
                }
                // the elapsed time and the -I ticks count from the counters' start (after -D)
                long t0 = System.nanoTime();
                CounterValues[][] last = {new CounterValues[specs.size()]};
                Aggregation.Readings[] lastEach = {null};
                Ticker tick = new Ticker() {
                    @Override
                    public void at(long now) {
                        if (aggregation != null) {
                            Aggregation.Readings cur = Aggregation.Readings.of(ev);
                            printAggregatedInterval(printer, now - t0, ev.events(), cur.minus(lastEach[0]));
                            lastEach[0] = cur;
                            return;
                        }
                        CounterValues[] cur = ev.read();
                        printInterval(printer, now - t0, ev.events(), delta(cur, last[0]));
                        last[0] = cur;
                    }
                };
                int exit = waitLoop(workload, t0, threads, tick);
                long t1 = System.nanoTime();
                if (!enableOnExec && options.delayMs() >= 0) {
                    ev.disable();
                }
                CounterValues[] totals = ev.read();
                Aggregation.Readings each = aggregation == null ? null : Aggregation.Readings.of(ev);
                if (options.intervalMs() > 0 && !intervalsDone) {
                    if (aggregation != null) {
                        printAggregatedInterval(printer, t1 - t0, ev.events(), each.minus(lastEach[0]));
                    } else {
                        printInterval(printer, t1 - t0, ev.events(), delta(totals, last[0]));
                    }
                }
                return new RunResult(ev.events(), totals, t1 - t0, ResourceUsage.children().since(before), exit, each);
            }
        } finally {
            stopWorkload(workload);
        }
    }

    /**
     * perf's enable_counters with an initial delay: the counters stay off for {@code -D} ms of the
     * workload's run (for good with -1), said on stderr as perf says it.
     */
    private void delay(Counters ev) {
        // (pr_info: --quiet does not silence these)
        err.print("Events disabled\n");
        err.flush();
        if (options.delayMs() < 0) {
            return;
        }
        long until = System.nanoTime() + options.delayMs() * 1_000_000L;
        for (long left = until - System.nanoTime(); left > 0 && !stopRequested; left = until - System.nanoTime()) {
            LockSupport.parkNanos(Math.min(left, POLL_NS));
        }
        ev.enable();
        err.print("Events enabled\n");
        err.flush();
    }

    /**
     * {@code --bpf-counters}: the followers filter as perf's bperf_check_target chooses: every CPU
     * ({@code -a}), the {@code -C} CPUs, the {@code -t} threads, else the processes ({@code -p} or
     * the workload).
     */
    private Counters bperf(List<EventSpec> specs, int[] cpus, int[] threads, Workload workload) throws IOException {
        BperfFollower.Filter filter;
        int[] keys;
        if (options.systemWide()) {
            filter = options.cpus() != null ? BperfFollower.Filter.CPU : BperfFollower.Filter.GLOBAL;
            keys = cpus;
        } else if (options.tids() != null) {
            filter = BperfFollower.Filter.PID;
            keys = threads;
        } else if (options.pids() != null) {
            filter = BperfFollower.Filter.TGID;
            keys = toArray(ids("-p", options.pids()));
        } else {
            filter = BperfFollower.Filter.TGID;
            keys = new int[] {workload.pid()};
        }
        Path map = options.bpfAttrMap() != null ? options.bpfAttrMap() : BperfAttrMap.DEFAULT_PATH;
        return BperfCounters.open(specs, map, filter, keys, onlineCpus(), possibleCpus());
    }

    /** The CPUs online now, from sysfs. */
    static int[] onlineCpus() throws IOException {
        return SystemCpus.onlineArray();
    }

    /** The slots of a per-CPU map value (libbpf_num_possible_cpus, as perf's bperf counts them). */
    static int possibleCpus() throws IOException {
        return SystemCpus.possibleCount();
    }

    static int[] toArray(List<Integer> l) {
        int[] a = new int[l.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = l.get(i);
        }
        return a;
    }

    static void stopWorkload(Workload workload) throws InterruptedException {
        if (workload != null && workload.alive()) {
            workload.terminate();
            if (workload.waitFor(2000) < 0) {
                workload.kill();
            }
        }
    }

    private static CounterValues[] delta(CounterValues[] cur, CounterValues[] last) {
        CounterValues[] d = new CounterValues[cur.length];
        for (int i = 0; i < cur.length; i++) {
            d[i] = cur[i] == null ? null : last[i] == null ? cur[i] : cur[i].minus(last[i]);
        }
        return d;
    }

    /** Whether the last {@link #waitLoop} printed all {@code --interval-count} intervals: no partial one follows. */
    boolean intervalsDone() {
        return intervalsDone;
    }

    /** What happens at each {@code -I} tick. */
    interface Ticker {
        void at(long now);
    }

    /**
     * Waits for the end (the workload's exit, a stop request, {@code --timeout}, every {@code -p}/
     * {@code -t} target gone), calling {@code tick} every {@code -I}. Returns the workload's exit
     * code (0 without one or when jperf stopped it).
     */
    int waitLoop(Workload workload, long t0, int[] threads, Ticker tick) throws InterruptedException {
        long intervalNs = options.intervalMs() * 1_000_000L;
        long deadline = options.timeoutMs() > 0 ? t0 + options.timeoutMs() * 1_000_000L : Long.MAX_VALUE;
        long next = intervalNs > 0 ? t0 + intervalNs : Long.MAX_VALUE;
        long ticks = 0;
        intervalsDone = false;
        boolean watchTargets = workload == null && (options.pids() != null || options.tids() != null);
        while (!stopRequested) {
            long now = System.nanoTime();
            if (now >= deadline) {
                break;
            }
            if (now >= next) {
                tick.at(now);
                next += intervalNs;
                if (options.intervalCount() > 0 && ++ticks >= options.intervalCount()) {
                    // --interval-count: no more lines; a workload is still waited for, as perf waits for its child
                    intervalsDone = true;
                    next = Long.MAX_VALUE;
                    if (workload == null) {
                        return 0;
                    }
                }
                continue;
            }
            if (watchTargets && !anyAlive(threads)) {
                break;
            }
            long until = Math.min(Math.min(next, deadline), now + POLL_NS);
            if (workload != null) {
                int code = workload.waitFor(Math.max(1, (until - now + 999_999) / 1_000_000));
                if (code >= 0) {
                    return code;
                }
            } else {
                LockSupport.parkNanos(until - now);
            }
        }
        return 0;
    }

    private static boolean anyAlive(int[] threads) {
        for (int tid : threads) {
            if (Files.exists(Path.of("/proc/" + tid))) {
                return true;
            }
        }
        return false;
    }

    private boolean targetNone() {
        return !options.systemWide() && !options.perThreadSystemWide() && options.pids() == null && options.tids() == null
                && options.bpfIds() == null;
    }

    /** The threads to count: the workload's, every thread of each {@code -p} process, the {@code -t} ones, or any. */
    private int[] threads(Workload workload) throws IOException {
        List<Integer> tids = new ArrayList<>();
        if (options.perThreadSystemWide()) {
            allThreads(tids);
        } else if (options.systemWide()) {
            tids.add(-1);
        } else if (options.pids() != null) {
            for (int pid : ids("-p", options.pids())) {
                Path task = Path.of("/proc/" + pid + "/task");
                if (!Files.isDirectory(task)) {
                    throw new StatException("no process with pid " + pid + " (no " + task + ")");
                }
                try (var dir = Files.newDirectoryStream(task)) {
                    for (Path t : dir) {
                        tids.add(Integer.parseInt(t.getFileName().toString()));
                    }
                }
            }
        } else if (options.tids() != null) {
            for (int tid : ids("-t", options.tids())) {
                if (!Files.isDirectory(Path.of("/proc/" + tid))) {
                    throw new StatException("no thread with tid " + tid + " (no /proc/" + tid + ")");
                }
                tids.add(tid);
            }
        } else {
            tids.add(workload.pid());
        }
        return toArray(tids);
    }

    /** Every thread of the machine, by /proc (perf's thread_map__new_all_cpus). */
    private static void allThreads(List<Integer> tids) throws IOException {
        try (var procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path p : procs) {
                try (var tasks = Files.newDirectoryStream(p.resolve("task"))) {
                    for (Path t : tasks) {
                        tids.add(Integer.parseInt(t.getFileName().toString()));
                    }
                } catch (IOException | NumberFormatException e) {
                    // gone meanwhile
                }
            }
        }
    }

    /** A comma-separated list of ids (pids, tids, program ids). */
    public static List<Integer> ids(String option, String list) {
        List<Integer> ids = new ArrayList<>();
        for (String s : list.split(",")) {
            if (s.isBlank()) {
                continue;
            }
            try {
                int id = Integer.parseInt(s.strip());
                if (id <= 0) {
                    throw new NumberFormatException();
                }
                ids.add(id);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("option '" + option + "' expects positive ids, not '" + s.strip() + "'");
            }
        }
        if (ids.isEmpty()) {
            throw new IllegalArgumentException("option '" + option + "' expects ids, got '" + list + "'");
        }
        return ids;
    }

    private int[] cpus() {
        List<Integer> l;
        try {
            l = options.cpus() != null ? CpuList.parse(options.cpus())
                    : SystemCpus.online();
        } catch (IOException | RuntimeException e) {
            throw new StatException("cannot read the CPU list" + (options.cpus() != null ? " '" + options.cpus() + "'" : "")
                    + ": " + e.getMessage(), e);
        }
        return toArray(l);
    }

    /** print_header's target: the BPF programs, the CPUs, the command, or the processes/threads. */
    String target() {
        if (options.bpfIds() != null) {
            return "'BPF program(s) " + options.bpfIds() + "'";
        }
        if (options.allCpus() || options.perThreadSystemWide()) {
            return "'system wide'";
        }
        if (options.cpus() != null) {
            return "'CPU(s) " + options.cpus() + "'";
        }
        if (options.pids() == null && options.tids() == null) {
            return "'" + String.join(" ", options.command()) + "'";
        }
        return options.pids() != null ? "process id '" + options.pids() + "'" : "thread id '" + options.tids() + "'";
    }

    boolean stopRequested() {
        return stopRequested;
    }
}
