package dev.jperf.recorder.stat;

import dev.jperf.loader.BpfObjInfo;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.Mount;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.ResourceUsage;
import dev.jperf.recorder.Workload;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code jperf stat -b ID[,ID]}: what each BPF program cost over the run. With {@code -e}, as
 * perf's bpf_counter: each event counted only while each program runs, by a
 * {@link BpfProgProfiler} (fentry/fexit on the program's main function) per program and event;
 * when the kernel refuses those, one line says so and only the kernel's BPF statistics are
 * shown: runs (and runs per second), run time (and the CPUs it amounts to), and the average run,
 * which are shown in any case. Each program is held by an fd for the whole run, so an id cannot
 * be reused by another program meanwhile.
 */
final class ProgramStat {
    private final StatSession session;
    private final StatOptions options;
    private final PrintStream err;
    private final Bpf bpf = new Bpf();

    ProgramStat(StatSession session, StatOptions options, PrintStream err) {
        this.session = session;
        this.options = options;
        this.err = err;
    }

    int run(PrintStream out) throws IOException, InterruptedException {
        List<Integer> ids = StatSession.ids("-b", options.bpfIds());
        List<Integer> fds = new ArrayList<>();
        try {
            List<BpfProgram> programs = new ArrayList<>();
            for (int id : ids) {
                int fd;
                try {
                    fd = bpf.progGetFdById(id);
                } catch (NativeException e) {
                    if (e.errno() == Errno.ENOENT) {
                        throw new StatException("no BPF program with id " + id + " is loaded (" + e.getMessage() + ")", e);
                    }
                    throw new StatException("cannot open BPF program " + id + ": " + e.getMessage(), e);
                }
                fds.add(fd);
                programs.add(BpfProgram.describe(bpf, id, fd));
            }
            if (options.events().isEmpty()) {
                String refusal = BpfStatsSession.probeFentry(bpf, fds.get(0));
                err.println("jperf stat: " + (refusal != null ? "fentry on BPF programs refused by the kernel (" + refusal
                        + "): " : "no -e events to count inside the runs: ") + FALLBACK);
                err.flush();
                try (BpfStatsSession stats = BpfStatsSession.enable(bpf)) {
                    return count(out, programs, fds, null);
                }
            }
            Profilers profilers = profile(programs, fds);
            try (BpfStatsSession stats = BpfStatsSession.enable(bpf)) {
                return count(out, programs, fds, profilers);
            } finally {
                if (profilers != null) {
                    profilers.close();
                }
            }
        } finally {
            for (int fd : fds) {
                Fd.close(fd);
            }
        }
    }

    private static final String FALLBACK = "counting runs and run time with the kernel's BPF statistics (BPF_ENABLE_STATS)";

    /**
     * The -e events opened on every online CPU (no inherit: bpf_perf_event_read_value reads only
     * events without children) and a profiler per program and supported event; null, after one
     * line saying why, when the kernel refuses fentry/fexit on a program or it has no BTF naming
     * its function (then nothing of the profilers stays loaded).
     */
    private Profilers profile(List<BpfProgram> programs, List<Integer> fds) throws IOException {
        int[] cpus = StatSession.onlineCpus();
        int possibleCpus = StatSession.possibleCpus();
        CountingEvents events = CountingEvents.open(StatSession.parseEvents(options.events()), cpus, new int[] {-1}, false,
                false);
        Profilers p = new Profilers(events, programs.size());
        String why = null;
        try {
            for (int i = 0; i < programs.size() && why == null; i++) {
                if (!hasBtf(fds.get(i))) {
                    why = "BPF program " + programs.get(i).id() + " has no BTF, which fentry/fexit need to name its function";
                    break;
                }
                for (int e = 0; e < events.events().size(); e++) {
                    if (!events.events().get(e).supported()) {
                        p.byProgram[i].add(null);
                        continue;
                    }
                    try {
                        p.byProgram[i].add(BpfProgProfiler.load(programs.get(i).id(), fds.get(i), programs.get(i).name(), cpus,
                                events.fds(e), possibleCpus));
                    } catch (BpfProgProfiler.Refused r) {
                        why = "fentry/fexit on BPF program " + programs.get(i).id() + " refused by the kernel: " + r.getMessage();
                        break;
                    }
                }
            }
            if (why == null) {
                events.enable();
                Profilers done = p;
                p = null;
                return done;
            }
        } finally {
            if (p != null) {
                p.close();
            }
        }
        err.println("jperf stat: " + why + "; " + FALLBACK + ", the -e events are not counted");
        err.flush();
        return null;
    }

    private boolean hasBtf(int fd) {
        BpfProgInfo info = BpfObjInfo.progInfo(bpf, fd, 0);
        return info.btfId() != 0 && info.nrFuncInfo() > 0;
    }

    /** The -e events and, per program, its profiler of each event (null for an unsupported one). */
    private static final class Profilers implements AutoCloseable {
        final CountingEvents events;
        final List<BpfProgProfiler>[] byProgram;

        @SuppressWarnings("unchecked")
        Profilers(CountingEvents events, int programs) {
            this.events = events;
            this.byProgram = new List[programs];
            for (int i = 0; i < programs; i++) {
                byProgram[i] = new ArrayList<>();
            }
        }

        /** Per program and event, the accumulated readings (null for an unsupported event). */
        CounterValues[][] read() {
            CounterValues[][] v = new CounterValues[byProgram.length][];
            for (int i = 0; i < v.length; i++) {
                v[i] = new CounterValues[byProgram[i].size()];
                for (int e = 0; e < v[i].length; e++) {
                    v[i][e] = byProgram[i].get(e) == null ? null : byProgram[i].get(e).read();
                }
            }
            return v;
        }

        @Override
        public void close() {
            for (List<BpfProgProfiler> l : byProgram) {
                for (BpfProgProfiler p : l) {
                    if (p != null) {
                        p.close();
                    }
                }
            }
            events.close();
        }
    }

    /** One reading: {run_time_ns, run_cnt} per program, and the profilers' readings (null without). */
    private record Reading(long[][] stats, CounterValues[][] accum) {}

    private Reading read(List<Integer> fds, Profilers profilers) {
        return new Reading(read(fds), profilers == null ? null : profilers.read());
    }

    private List<Row> rows(List<BpfProgram> programs, Profilers profilers, Reading from, Reading to, long wallNs) {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < programs.size(); i++) {
            if (profilers != null) {
                rows.addAll(eventRows(programs.get(i), profilers.events.events(), from.accum()[i], to.accum()[i], wallNs,
                        options.scale()));
            }
            rows.addAll(rows(List.of(programs.get(i)), new long[][] {from.stats()[i]}, new long[][] {to.stats()[i]},
                    wallNs));
        }
        return rows;
    }

    /** A program's -e rows: what each event counted during its runs, named id:name/event. */
    static List<Row> eventRows(BpfProgram p, List<StatEvent> events, CounterValues[] from, CounterValues[] to,
            long wallNs, boolean scale) {
        ShadowStats shadow = new ShadowStats(wallNs);
        List<StatEvent> named = new ArrayList<>();
        CounterValues[] delta = new CounterValues[events.size()];
        for (int e = 0; e < delta.length; e++) {
            StatEvent ev = events.get(e);
            named.add(new StatEvent(p.id() + ":" + p.name() + "/" + ev.name(), ev.type(), ev.config(), ev.unit(), ev.scale(),
                    ev.clock(), ev.supported(), ev.context()));
            if (to[e] != null) {
                CounterValues d = to[e].minus(from[e]);
                CounterValues s = d.scaled(scale);
                delta[e] = s == null ? d : s;
                if (s != null) {
                    shadow.update(named.get(e), s.val());
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        for (int e = 0; e < delta.length; e++) {
            rows.add(StatSession.row(named.get(e), delta[e], delta[e] == null ? 0 : delta[e].val(), Double.NaN, shadow));
        }
        return rows;
    }

    private int count(PrintStream out, List<BpfProgram> programs, List<Integer> fds, Profilers profilers)
            throws IOException, InterruptedException {
        int unitWidth = 4;
        if (profilers != null) {
            for (StatEvent e : profilers.events.events()) {
                unitWidth = Math.max(unitWidth, e.unit().length());
            }
        }
        StatPrinter printer = new StatPrinter(out, options.json(), options.csvSeparator(), unitWidth, 1);
        if (options.sync()) {
            Mount.sync();
        }
        Workload workload = options.command().isEmpty() ? null : Workload.startStopped(options.command(), false);
        try {
            ResourceUsage before = ResourceUsage.children();
            Reading start = read(fds, profilers);
            long t0 = System.nanoTime();
            if (workload != null) {
                workload.go();
            }
            Reading[] last = {start};
            StatSession.Ticker tick = new StatSession.Ticker() {
                @Override
                public void at(long now) {
                    Reading cur = read(fds, profilers);
                    printer.intervalHeader(options.intervalClear());
                    String prefix = printer.intervalPrefix(now - t0);
                    for (Row r : rows(programs, profilers, last[0], cur, options.intervalMs() * 1_000_000L)) {
                        printer.row(prefix, r);
                    }
                    last[0] = cur;
                }
            };
            int exit = session.waitLoop(workload, t0, new int[0], tick);
            long t1 = System.nanoTime();
            Reading end = read(fds, profilers);
            if (options.intervalMs() > 0) {
                if (session.intervalsDone()) {
                    return exit;
                }
                printer.intervalHeader(options.intervalClear());
                String prefix = printer.intervalPrefix(t1 - t0);
                for (Row r : rows(programs, profilers, last[0], end, options.intervalMs() * 1_000_000L)) {
                    printer.row(prefix, r);
                }
                return exit;
            }
            printer.header(session.target(), 1);
            for (Row r : rows(programs, profilers, start, end, t1 - t0)) {
                printer.row(null, r);
            }
            Stats wall = new Stats();
            wall.update(t1 - t0);
            printer.footer(wall, workload != null ? ResourceUsage.children().since(before) : null, false);
            return exit;
        } finally {
            StatSession.stopWorkload(workload);
        }
    }

    /** {run_time_ns, run_cnt} per program. */
    private long[][] read(List<Integer> fds) {
        long[][] v = new long[fds.size()][];
        for (int i = 0; i < v.length; i++) {
            v[i] = BpfProgram.runCounters(bpf, fds.get(i));
        }
        return v;
    }

    /** Per program: run_cnt (runs/s), run_time (CPUs), avg_run_time (ns per run) over {@code wallNs}. */
    static List<Row> rows(List<BpfProgram> programs, long[][] from, long[][] to, long wallNs) {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < programs.size(); i++) {
            BpfProgram p = programs.get(i);
            String prefix = p.id() + ":" + p.name() + "/";
            long ns = to[i][0] - from[i][0];
            long runs = to[i][1] - from[i][1];
            CounterValues whole = new CounterValues(runs, wallNs, wallNs);
            rows.add(new Row(prefix + "run_cnt", "", false, true, whole, runs, Double.NaN,
                    Metric.perSecond(wallNs > 0 ? runs * 1e9 / wallNs : 0)));
            rows.add(new Row(prefix + "run_time", "msec", true, true, whole, ns * 1e-6, Double.NaN,
                    new Metric("%8.3f", "CPUs utilized", wallNs > 0 ? (double) ns / wallNs : 0)));
            rows.add(new Row(prefix + "avg_run_time", "ns", true, true, runs > 0 ? whole : CounterValues.ZERO,
                    runs > 0 ? (double) ns / runs : 0, Double.NaN, Metric.NONE));
        }
        return rows;
    }
}
