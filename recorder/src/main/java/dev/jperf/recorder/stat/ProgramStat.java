package dev.jperf.recorder.stat;

import com.sun.jna.Memory;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.BpfProgInfoLayout;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.ResourceUsage;
import dev.jperf.recorder.Workload;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code jperf stat -b ID[,ID]}: what each BPF program cost over the run, from the kernel's own
 * BPF statistics: runs (and runs per second), run time (and the CPUs it amounts to), and the
 * average run. perf's bpf_counter would count the {@code -e} events inside each run with fentry/
 * fexit programs around the target; jperf tries that first and says in one line why it does not
 * ({@link BpfStatsSession#probeFentry}). Each program is held by an fd for the whole run, so an
 * id cannot be reused by another program meanwhile.
 */
final class ProgramStat {
    private final StatSession session;
    private final StatOptions options;
    private final PrintStream err;
    private final Bpf bpf = new Bpf();
    private final Memory info = new Memory(BpfProgInfoLayout.SIZE);

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
            String refusal = BpfStatsSession.probeFentry(bpf, fds.get(0));
            String fallback = "counting runs and run time with the kernel's BPF statistics (BPF_ENABLE_STATS)"
                    + (options.events().isEmpty() ? "" : "; the -e events are not counted");
            err.println("jperf stat: " + (refusal != null ? "fentry on BPF programs refused by the kernel (" + refusal
                    + "): " : "counting -e events inside each run of a BPF program (perf's fentry/fexit way) is not"
                    + " implemented in jperf: ") + fallback);
            err.flush();
            try (BpfStatsSession stats = BpfStatsSession.enable(bpf)) {
                return count(out, programs, fds);
            }
        } finally {
            for (int fd : fds) {
                Fd.close(fd);
            }
        }
    }

    private int count(PrintStream out, List<BpfProgram> programs, List<Integer> fds)
            throws IOException, InterruptedException {
        StatPrinter printer = new StatPrinter(out, options.json(), options.csvSeparator(), 4, 1);
        Workload workload = options.command().isEmpty() ? null : Workload.startStopped(options.command(), false);
        try {
            ResourceUsage before = ResourceUsage.children();
            long[][] start = read(fds);
            long t0 = System.nanoTime();
            if (workload != null) {
                workload.go();
            }
            long[][][] last = {start};
            StatSession.Ticker tick = new StatSession.Ticker() {
                @Override
                public void at(long now) {
                    long[][] cur = read(fds);
                    printer.intervalHeader();
                    String prefix = printer.intervalPrefix(now - t0);
                    for (Row r : rows(programs, last[0], cur, options.intervalMs() * 1_000_000L)) {
                        printer.row(prefix, r);
                    }
                    last[0] = cur;
                }
            };
            int exit = session.waitLoop(workload, t0, new int[0], tick);
            long t1 = System.nanoTime();
            long[][] end = read(fds);
            if (options.intervalMs() > 0) {
                printer.intervalHeader();
                String prefix = printer.intervalPrefix(t1 - t0);
                for (Row r : rows(programs, last[0], end, options.intervalMs() * 1_000_000L)) {
                    printer.row(prefix, r);
                }
                return exit;
            }
            printer.header(session.target(), 1);
            for (Row r : rows(programs, start, end, t1 - t0)) {
                printer.row(null, r);
            }
            Stats wall = new Stats();
            wall.update(t1 - t0);
            printer.footer(wall, workload != null ? ResourceUsage.children().since(before) : null);
            return exit;
        } finally {
            StatSession.stopWorkload(workload);
        }
    }

    /** {run_time_ns, run_cnt} per program. */
    private long[][] read(List<Integer> fds) {
        long[][] v = new long[fds.size()][];
        for (int i = 0; i < v.length; i++) {
            v[i] = BpfProgram.runCounters(bpf, fds.get(i), info);
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
