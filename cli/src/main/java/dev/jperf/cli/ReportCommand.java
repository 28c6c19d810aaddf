package dev.jperf.cli;

import dev.jperf.format.PerfDataFile;
import dev.jperf.report.Report;
import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.report.dump.RawDump;
import dev.jperf.report.header.HeaderReport;
import dev.jperf.report.stats.EventStats;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code jperf report}: perf report's options, spelled as perf spells them. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Reads a perf.data file and prints where the samples are (perf report).")
public final class ReportCommand implements Callable<Integer> {
    @Option(names = {"-i", "--input"}, paramLabel = "FILE",
            description = "input file name (default: perf.data, or stdin when it is a pipe; - for stdin)")
    String input;

    @Option(names = "--stats", description = "Display event stats")
    boolean stats;

    @Option(names = {"-D", "--dump-raw-trace"}, description = "dump raw trace in ASCII")
    boolean dumpRawTrace;

    @Option(names = "--stdio", description = "use the stdio interface (the only one; accepted for perf compatibility)")
    boolean stdio;

    @Option(names = {"-s", "--sort"}, paramLabel = "KEY[,KEY...]",
            description = "sort by key(s): comm, dso, sym, pid, tid, cpu (default: comm,dso,sym)")
    String sort = "comm,dso,sym";

    @Option(names = "--percent-limit", paramLabel = "PERCENT", description = "don't show entries under this percentage")
    double percentLimit;

    @Option(names = "--percentage", paramLabel = "relative|absolute",
            description = "percentages of the samples --comm/--pid/--tid keep (relative) or of all (absolute, default)")
    String percentage = "absolute";

    @Option(names = {"-c", "--comms"}, split = ",", paramLabel = "COMM[,COMM...]", description = "only consider these comms")
    Set<String> comms;

    @Option(names = "--comm", hidden = true, split = ",")
    Set<String> comm;

    @Option(names = "--pid", split = ",", paramLabel = "PID[,PID...]", description = "only consider these processes")
    Set<Integer> pids;

    @Option(names = "--tid", split = ",", paramLabel = "TID[,TID...]", description = "only consider these threads")
    Set<Integer> tids;

    @Option(names = "--cpu", paramLabel = "CPU_LIST", description = "only consider these CPUs (e.g. 0-2,4)")
    String cpus;

    @Option(names = {"-k", "--kallsyms"}, paramLabel = "FILE", description = "kallsyms file to resolve kernel symbols")
    Path kallsyms;

    @Option(names = "--symfs", paramLabel = "DIR", description = "look for symbol files relative to this directory")
    Path symfs;

    @Option(names = {"-g", "--call-graph"}, paramLabel = "print_type,threshold[,print_limit],order,sort_key,value",
            arity = "0..1", fallbackValue = CallchainParams.DEFAULT_ARG,
            description = "call graph: graph|fractal|flat|folded|none, threshold %%, print limit, caller|callee, "
                    + "function, percent|period|count (default: graph,0.5,callee; caller with --children; "
                    + "-g alone: " + CallchainParams.DEFAULT_ARG + ")")
    String callGraph;

    @Option(names = {"-G", "--inverted"}, description = "alias for inverted call graph (caller order)")
    boolean inverted;

    @Option(names = "--children", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "accumulate callchains of children into parent entries (default when the file has callchains)")
    boolean children;

    @Option(names = "--demangle", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "demangle C++ and Rust symbol names (default; --no-demangle shows them as in the file)")
    boolean demangle;

    @Option(names = "--json", description = "print the rows as JSON instead of the table: Children/Self (or Overhead) and,"
            + " with callchains and -g not none, each row's call graph as nested objects")
    boolean json;

    @Option(names = "--header-only", description = "show only the perf.data header (features; all of them with -I)")
    boolean headerOnly;

    @Option(names = "--header", description = "show the perf.data header (all of it with -I), then the report")
    boolean header;

    @Option(names = {"-I", "--show-info"}, description = "display extended information about the perf.data file")
    boolean showInfo;

    @Override
    public Integer call() {
        // one mode per run, in perf's precedence: --header-only, -D, --stats, then the report itself
        if (headerOnly) {
            try (PerfDataFile f = Input.open(input)) {
                HeaderReport.print(f, showInfo, System.out);
                Input.printWarnings(f, System.err);
            }
            return 0;
        }
        if (dumpRawTrace || stats) {
            return readAll();
        }
        String name = Input.name(this.input);
        boolean stdin = Input.STDIN.equals(name);
        Path input = Path.of(name);
        if (!stdin && !Files.exists(input)) {
            throw new IllegalArgumentException(input + ": no such file");
        }
        if (kallsyms != null && !Files.isRegularFile(kallsyms)) {
            throw new IllegalArgumentException(kallsyms + ": kallsyms file not found");
        }
        Set<String> commSet = comms;
        if (comm != null) {
            commSet = commSet == null ? new HashSet<>() : new HashSet<>(commSet);
            commSet.addAll(comm);
        }
        CallchainParams graph = callGraph == null ? CallchainParams.DEFAULT : CallchainParams.parse(callGraph);
        if (inverted) {
            graph = new CallchainParams(graph.mode(), graph.minPercent(), graph.printLimit(),
                    CallchainParams.Order.CALLER, true, graph.value());
        }
        boolean relative;
        if ("relative".startsWith(percentage) && !percentage.isEmpty()) {
            relative = true;
        } else if ("absolute".startsWith(percentage) && !percentage.isEmpty()) {
            relative = false;
        } else {
            throw new IllegalArgumentException("--percentage " + percentage + ": expected relative or absolute");
        }
        Report.Options o = new Report.Options(input, SortKey.parse(sort), children, graph, percentLimit, relative,
                commSet, pids, tids, parseCpus(cpus), kallsyms, symfs, json, demangle);
        if (header && !json) {
            // a stream is read once: header and report come from the one open
            try (PerfDataFile f = Input.open(this.input)) {
                HeaderReport.print(f, showInfo, System.out);
                // perf then prints the report without its "use --header" hint and the line after it
                PrintStream rest = new PrintStream(new SkipLines(System.out, 2), false);
                Report.run(f, o, rest);
                rest.flush();
            }
            return 0;
        }
        if (stdin) {
            try (PerfDataFile f = Input.open(this.input)) {
                Report.run(f, o, System.out);
                Input.printWarnings(f, System.err);
            }
        } else {
            Report.run(o, System.out);
        }
        return 0;
    }

    /** -D (every record, perf's dump, then the stats) or --stats. */
    private int readAll() {
        PrintStream out = Input.stdout();
        try (PerfDataFile file = Input.open(input)) {
            if (dumpRawTrace) {
                RawDump.print(file, out, true);
            } else {
                EventStats.of(file).print(out);
            }
            out.flush();
            Input.printWarnings(file, System.err);
        }
        return 0;
    }

    /** perf's CPU list syntax: "0-2,4". */
    static Set<Integer> parseCpus(String list) {
        if (list == null) {
            return null;
        }
        Set<Integer> out = new HashSet<>();
        for (String part : list.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            try {
                int dash = p.indexOf('-');
                if (dash > 0) {
                    int a = Integer.parseInt(p.substring(0, dash));
                    int b = Integer.parseInt(p.substring(dash + 1));
                    if (b < a || b - a > 4096) {
                        throw new IllegalArgumentException("bad CPU range: " + p);
                    }
                    for (int c = a; c <= b; c++) {
                        out.add(c);
                    }
                } else {
                    out.add(Integer.parseInt(p));
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad CPU list: " + list);
            }
        }
        return out;
    }
}
