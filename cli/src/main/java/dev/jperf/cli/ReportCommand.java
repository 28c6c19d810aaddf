package dev.jperf.cli;

import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.cli.options.UsageException;
import dev.jperf.format.PerfDataException;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.header.CpuList;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.nativeshim.Terminal;
import dev.jperf.report.Report;
import dev.jperf.report.tui.Browser;
import dev.jperf.report.tui.ReportBrowserModel;
import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.session.EvSwitch;
import dev.jperf.report.session.Machine;
import dev.jperf.report.dump.RawDump;
import dev.jperf.report.export.Exports;
import dev.jperf.report.header.HeaderReport;
import dev.jperf.report.session.SampleFilter;
import dev.jperf.report.stats.EventStats;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** {@code jperf report}: perf report's options, spelled as perf spells them. */
final class ReportCommand implements Subcommand {
    /** --pprof without a file name (pprof's own habit). */
    static final String PPROF_FILE = "profile.pb.gz";
    /** --flamegraph without a file name (perf's flamegraph script's). */
    static final String FLAMEGRAPH_FILE = "flamegraph.html";
    private Path buildIdDir;
    private String input;
    /** -f/--force: a file of another user read all the same. */
    private boolean force;
    private boolean stats;
    private boolean tasks;
    private boolean mmaps;
    private boolean dumpRawTrace;
    /** --sort; null: perf's default (comm,dso,sym, or the branch mode's). */
    private String sort;
    /** -F/--fields; null: perf's default columns. */
    private String fields;
    private double percentLimit;
    /** --percent-limit given after any -g: it decides the graph's threshold whatever -g said. */
    private boolean percentLimitLast;
    private String percentage = "absolute";
    /** --group/--no-group; null when neither was given. */
    private Boolean group;
    /** -b/--branch-stack, --no-branch-stack; null when neither was given. */
    private Boolean branchStack;
    private String comms;
    private String dsos;
    private String symbols;
    private String pids;
    private String tids;
    private String cpus;
    private String time;
    private Path kallsyms;
    private Path symfs;
    private String callGraph;
    private boolean inverted;
    private boolean children = true;
    private boolean demangle = true;
    private boolean fullSourcePath;
    private boolean inline = true;
    private boolean json;
    private boolean headerOnly;
    private boolean header;
    private boolean showInfo;
    private boolean showSamples;
    private boolean showPeriod;
    /** --percent-type, checked when run (a command line error all the same). */
    private String percentType;
    private boolean quiet;
    private String separator;
    private String pprof;
    private String flamegraph;
    private int maxStack = Machine.PERF_MAX_STACK_DEPTH;
    private boolean hideUnresolved;
    private boolean skipEmpty = true;
    /** --samples: kept per entry for the TUI's browser (perf's res_sample), which the stdio report does not show. */
    private int samples;
    private String symbolFilter;
    private boolean branchHistory;
    private boolean stitchLbr;
    private boolean totalCycles;
    private boolean cpuUtilization;
    private String switchOn;
    private String switchOff;
    private boolean showOnOffEvents;
    /** --stdio (true) or --tui (false); null: the browser when stdout is a terminal, as perf's setup_browser. */
    private Boolean stdio;

    @Override
    public String name() {
        return "report";
    }

    @Override
    public String summary() {
        return "Read perf.data and display the profile (perf report)";
    }

    @Override
    public Options options() {
        return options("jperf report [<options>]");
    }

    /** The option table under another usage line ({@code jperf flamegraph} shares it). */
    Options options(String usage) {
        return new Options(usage)
                .value('i', "input", "file", Input.HELP)
                .flag('f', "force", "don't complain, do it")
                .flag('\0', "stats", "display event stats")
                .flag('D', "dump-raw-trace", "dump raw trace in ASCII")
                .flag('\0', "tasks", "Display recorded tasks")
                .flag('\0', "mmaps", "Display recorded tasks memory maps")
                .flag('\0', "stdio", "use the stdio interface (through $PERF_PAGER/$PAGER/less on a terminal)")
                .flag('\0', "tui", "use the TUI interface (the default on a terminal): the terminal browser")
                .value('s', "sort", "key[,key2...]", "sort by key(s): comm, dso, sym, pid, tid, cpu, srcline, srcfile, and the output fields"
                        + " overhead, overhead_children, sample, period; in branch mode also"
                        + " dso_from, dso_to, symbol_from, symbol_to, cycles, srcline_from, srcline_to (default: comm,dso,sym;"
                        + " comm,dso_from,symbol_from,symbol_to,cycles in branch mode)")
                .value('F', "fields", "key[,keys...]", "output field(s): overhead overhead_children sample period, and"
                        + " the sort keys (a leading + adds them to the default columns)")
                .value('\0', "percent-limit", "percent", "don't show entries under that percent")
                .value('\0', "percentage", "relative|absolute",
                        "percentages of the samples the filters (--comms, --dsos...) keep (relative) or of all (absolute, default)")
                .value('c', "comms", "comm[,comm...]", "only consider symbols in these comms")
                .value('d', "dsos", "dso[,dso...]", "only consider symbols in these dsos")
                .value('S', "symbols", "symbol[,symbol...]", "only consider these symbols")
                .value('\0', "pid", "pid[,pid...]", "only consider symbols in these pids")
                .value('\0', "tid", "tid[,tid...]", "only consider symbols in these tids")
                .value('C', "cpu", "cpu", "list of cpus to profile (e.g. 0-2,4)")
                .value('\0', "time", "str", "Time span of interest (start,stop)")
                .value('\0', "kallsyms", "file", "kallsyms pathname")
                .value('\0', "symfs", "directory", "look for files with symbols relative to this directory")
                .valueOrDefault('g', "call-graph", "print_type,threshold[,print_limit],order,sort_key[,branch],value",
                        "display call graph: graph|fractal|flat|folded|none, threshold %, print limit, caller|callee,"
                                + " function, percent|period|count (default " + CallchainParams.DEFAULT_ARG + ")",
                        CallchainParams.DEFAULT_ARG)
                .flag('G', "inverted", "alias for inverted call graph")
                .flag('U', "hide-unresolved", "Only display entries resolved to a symbol")
                .value('\0', "samples", "n", "Number of samples to save per histogram entry for individual browsing"
                        + " (in perf's TUI; the stdio report, jperf's, shows none)")
                .value('\0', "symbol-filter", "filter", "only show symbols that (partially) match with this filter")
                .flag('\0', "skip-empty", "Do not display empty (or dummy) events in the output (default; --no-skip-empty shows them)")
                .value('\0', "max-stack", "n", "Set the maximum stack depth when parsing the callchain, anything beyond"
                        + " the specified depth will be ignored. Default: " + Machine.PERF_MAX_STACK_DEPTH)
                .flag('\0', "children", "accumulate callchains of children and show total overhead as well"
                        + " (default when the file has callchains)")
                .flag('\0', "full-source-path", "Show full source file name path for source lines")
                .flag('\0', "demangle-kernel", "Enable kernel symbol demangling (perf demangles a vmlinux's or a module's"
                        + " ELF symbols; the kallsyms names jperf reads stay as they are, as in perf)")
                .flag('\0', "demangle", "demangle symbol names (default; --no-demangle shows them as in the file)")
                .flag('\0', "inline", "show inlined functions in DWARF-unwound call chains (default; --no-inline: none)")
                .flag('\0', "json", "print the rows as JSON: Children/Self (or Overhead) and, with callchains and -g"
                        + " not none, each row's call graph as nested objects")
                .flag('\0', "header-only", "show only data header (all of it with -I)")
                .flag('\0', "header", "show data header (all of it with -I), then the report")
                .flag('I', "show-info", "display extended information about perf.data file")
                .flag('n', "show-nr-samples", "show a column with the number of samples")
                .flag('\0', "show-total-period", "Show a column with the sum of periods")
                .value('\0', "percent-type", "local-period", "Set percent type local/global-period/hits"
                        + " (annotation percentages: the stdio report has none)")
                .flag('q', "quiet", "Do not show any warnings or messages")
                .value('t', "field-separator", "separator", "separator for columns, no spaces will be added between columns '.' is reserved.")
                .valueOrDefault('\0', "pprof", "file", "write the profile as pprof's profile.proto, gzipped"
                        + " (default profile.pb.gz; - for stdout): per event samples and period, BPF lines", PPROF_FILE)
                .valueOrDefault('\0', "flamegraph", "file", "write an interactive flame graph, one self-contained HTML"
                        + " file (default flamegraph.html; - for stdout)", FLAMEGRAPH_FILE)
                .value('\0', "buildid-dir", "dir", "the build-id cache (default: $PERF_BUILDID_DIR, else ~/.debug)")
                .flag('\0', "group", "show event group information together (default when the file has groups)")
                .flag('b', "branch-stack", "use branch records for per branch histogram filling (default when the file"
                        + " has branch stacks; sort keys dso_from, dso_to, symbol_from, symbol_to, cycles)")
                .flag('\0', "branch-history", "add last branch records to call history (a file without callchains is"
                        + " an error, as in perf; one with them: not computed by jperf yet)")
                .flag('\0', "stitch-lbr", "Enable LBR callgraph stitching approach (switched off, saying so, on a"
                        + " file without LBR call stacks, as in perf; not computed by jperf on one with them)")
                .flag('\0', "total-cycles", "Sort all blocks by 'Sampled Cycles%' (branch mode only, as in perf;"
                        + " not computed by jperf yet)")
                .value('\0', "switch-on", "event", "Consider events after the ocurrence of this event")
                .value('\0', "switch-off", "event", "Stop considering events after the ocurrence of this event")
                .flag('\0', "show-on-off-events", "Show the on/off switch events, used with --switch-on and --switch-off")
                .flag('\0', "ignore-vmlinux", "don't load vmlinux even if found (jperf never loads one: kernel symbols"
                        + " come from kallsyms, as perf's do with this option)")
                .flag('\0', "show-cpu-utilization", "show sample percentage for different cpu modes (sys and usr"
                        + " columns after Overhead)")
                .value('\0', "pretty", "key", "pretty printing style key: normal raw (the style of perf's --threads"
                        + " table, which jperf does not print: no other output changes, as in perf)");
    }

    @Override
    public void buildIdDir(Path dir) {
        buildIdDir = dir;
    }

    @Override
    public void set(String name, OptionValue v) {
        switch (name) {
            case "buildid-dir" -> buildIdDir = Path.of(v.text());
            case "input" -> input = v.text();
            case "force" -> force = v.on();
            case "stats" -> stats = v.on();
            case "tasks" -> tasks = v.on();
            case "mmaps" -> mmaps = v.on();
            case "dump-raw-trace" -> dumpRawTrace = v.on();
            case "stdio" -> stdio = v.on() ? Boolean.TRUE : null;
            case "tui" -> stdio = v.on() ? Boolean.FALSE : null;
            case "sort" -> sort = v.text();
            case "fields" -> fields = v.text();
            case "percent-limit" -> {
                percentLimit = v.decimal();
                percentLimitLast = true; // perf's parse_percent_limit sets the graph's threshold as well
            }
            case "percentage" -> percentage = v.text();
            case "comms" -> comms = v.text();
            case "dsos" -> dsos = v.text();
            case "symbols" -> symbols = v.text();
            case "pid" -> pids = v.text();
            case "tid" -> tids = v.text();
            case "cpu" -> cpus = v.text();
            case "time" -> time = v.text();
            case "kallsyms" -> kallsyms = Path.of(v.text());
            case "symfs" -> symfs = Path.of(v.text());
            case "call-graph" -> {
                callGraph = v.text();
                percentLimitLast = false;
            }
            case "inverted" -> inverted = v.on();
            case "hide-unresolved" -> hideUnresolved = v.on();
            case "skip-empty" -> skipEmpty = v.on();
            case "samples" -> samples = v.perfInt();
            case "symbol-filter" -> symbolFilter = v.text();
            case "max-stack" -> maxStack = (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v.integer()));
            case "children" -> children = v.on();
            case "demangle" -> demangle = v.on();
            case "full-source-path" -> fullSourcePath = v.on();
            case "demangle-kernel" -> { } // kallsyms names: perf demangles none of them either
            case "inline" -> inline = v.on();
            case "json" -> json = v.on();
            case "header-only" -> headerOnly = v.on();
            case "header" -> header = v.on();
            case "show-info" -> showInfo = v.on();
            case "show-nr-samples" -> showSamples = v.on();
            case "show-total-period" -> showPeriod = v.on();
            case "percent-type" -> percentType = v.text();
            case "quiet" -> quiet = v.on();
            case "field-separator" -> separator = v.text();
            case "pprof" -> pprof = v.text();
            case "flamegraph" -> flamegraph = v.text();
            case "group" -> group = v.on();
            case "branch-stack" -> branchStack = v.on();
            case "branch-history" -> branchHistory = v.on();
            case "stitch-lbr" -> stitchLbr = v.on();
            case "total-cycles" -> totalCycles = v.on();
            case "show-cpu-utilization" -> cpuUtilization = v.on();
            case "ignore-vmlinux" -> { } // what jperf always does
            case "switch-on" -> switchOn = v.text();
            case "switch-off" -> switchOff = v.text();
            case "show-on-off-events" -> showOnOffEvents = v.on();
            case "pretty" -> { } // perf reads it for --threads' table only, which jperf has not
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public int call() {
        // perf's setup_browser: no pager (nor browser) for a stream on stdin
        Pager pager = Input.STDIN.equals(Input.name(input)) || browser() ? null : Pager.start();
        try {
            return report();
        } finally {
            if (pager != null) {
                pager.close();
            }
        }
    }

    /**
     * Whether the report is browsed: perf's setup_browser shows its TUI when stdout is a terminal
     * (--tui or not), unless --stdio, -D, or a mode without rows; jperf's browser also reads keys
     * from stdin, a terminal too.
     */
    private boolean browser() {
        return !Boolean.TRUE.equals(stdio) && !dumpRawTrace && !stats && !headerOnly && !header && !tasks && !mmaps
                && !json && pprof == null && flamegraph == null && separator == null
                && !Input.STDIN.equals(Input.name(input)) && Terminal.isTerminal(1) && Terminal.isTerminal(0);
    }

    private int report() {
        if (percentType != null) {
            percentType(percentType);
        }
        // one mode per run, in perf's precedence: --header-only, -D, --stats, --tasks, then the report itself
        if (headerOnly) {
            try (PerfDataFile f = Input.open(input, force)) {
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
            throw new Input.Unreadable(new PerfDataException(input + ": No such file or directory"));
        }
        if (kallsyms != null && !Files.isRegularFile(kallsyms)) {
            throw new IllegalArgumentException(kallsyms + ": kallsyms file not found");
        }
        // --percent-limit is the graph's threshold too (perf's parse_percent_limit): a later -g
        // changes it only with a threshold of its own
        double threshold = percentLimit > 0 ? percentLimit : CallchainParams.DEFAULT.minPercent();
        CallchainParams graph = callGraph == null ? CallchainParams.DEFAULT.withMinPercent(threshold)
                : CallchainParams.parse(callGraph, threshold);
        if (percentLimitLast && percentLimit > 0) {
            graph = graph.withMinPercent(percentLimit);
        }
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
        SampleFilter filter = SampleFilter.tasks(CommaList.strings(comms), asSet(CommaList.ints("--pid", pids)),
                asSet(CommaList.ints("--tid", tids)))
                .withCpus(parseCpus(cpus)).withDsos(CommaList.strings(dsos)).withSymbols(CommaList.strings(symbols))
                .withTime(time);
        Report.Options.Builder b = Report.Options.builder(input).buildIdDir(buildIdDir).children(children)
                .callGraph(graph).percent(percentLimit, relative).filter(filter)
                .symbols(kallsyms, symfs).json(json).demangle(demangle).inline(inline).showSamples(showSamples).showPeriod(showPeriod).quiet(quiet).separator(separator)
                .group(group).branchStack(branchStack).maxStack(maxStack).hideUnresolved(hideUnresolved).skipEmpty(skipEmpty).symbolFilter(symbolFilter).fullSourcePath(fullSourcePath)
                // perf errs on -g with a mode (not on -G alone, nor on -g none) for a file without callchains
                .callchainsAsked(callGraph != null && graph.mode() != CallchainParams.Mode.NONE)
                .branchOptions(branchHistory, stitchLbr, totalCycles).cpuUtilization(cpuUtilization)
                .evswitch(switchOn, switchOff, showOnOffEvents);
        if (sort != null) {
            b.sort(sort);
        }
        b.fields(fields);
        Report.Options o = b.build();
        // perf's tasks_mode (--mmaps sets it too): the thread tree in place of the report
        if (tasks || mmaps) {
            try (PerfDataFile f = Input.open(this.input, force)) {
                Report.tasks(f, o, mmaps, System.out);
            }
            return 0;
        }
        // perf's -q: no warnings either
        PrintStream warnings = quiet ? new PrintStream(OutputStream.nullOutputStream()) : System.err;
        if (pprof != null || flamegraph != null) {
            if (fields != null) {
                // the exports have no columns to choose
                throw new UsageException("-F/--fields chooses the stdio report's columns: not with --"
                        + (pprof != null ? "pprof" : "flamegraph"));
            }
            try (PerfDataFile f = Input.open(this.input, force)) {
                if (pprof != null) {
                    Exports.pprof(f, o, pprof, System.out, warnings);
                } else {
                    Exports.flamegraph(f, o, flamegraph, System.out, warnings);
                }
                Input.printWarnings(f, warnings);
            }
            return 0;
        }
        if (header && !json) {
            // a stream is read once: header and report come from the one open
            try (PerfDataFile f = Input.open(this.input, force)) {
                HeaderReport.print(f, showInfo, System.out);
                // perf then prints the report without its "use --header" hint and the line after it
                PrintStream rest = new PrintStream(new SkipLines(System.out, 2), false);
                Report.run(f, o, rest, warnings);
                rest.flush();
                Input.printWarnings(f, warnings);
            }
            return 0;
        }
        try (PerfDataFile f = Input.open(this.input, force)) {
            if (samples < 0) {
                // perf's calloc of a negative count fails at the first sample (a file without samples aside); it says so, exit 0
                System.out.print("# To display the perf.data header info, please use --header/--header-only options.\n#\n");
                System.err.print("Error:\nfailed to process sample\n");
                return 0;
            }
            if (cpus != null && lacksCpus(f)) {
                // perf has printed the header's hint by then, and ends with status 0
                System.out.print("# To display the perf.data header info, please use --header/--header-only options.\n#\n");
                System.err.print("Error:\nfailed to set cpu bitmap\n");
                return 0;
            }
            try {
                if (browser()) {
                    browse(o);
                    return 0;
                }
                // perf colours the percentages on a terminal and in its pager
                Report.run(f, Terminal.isTerminal(1) ? o.toBuilder().color(true).build() : o, System.out, warnings);
            } catch (EvSwitch.NotFound e) {
                // perf's evswitch__init: its line, and -ENOENT as the exit status
                System.err.print("ERROR: " + e.getMessage() + "\nHINT:  use 'jperf evlist' to see the available event names\n");
                return 254;
            }
            // damage is said after the report, once the records were read (where reading stopped)
            Input.printWarnings(f, warnings);
        }
        return 0;
    }

    /** The terminal browser over the report's rows (report/tui, top's too); warnings once it is left. */
    private void browse(Report.Options o) {
        ReportBrowserModel model = new ReportBrowserModel(() -> Input.open(input, force), o);
        try (Terminal t = Terminal.characterMode(0)) {
            new Browser(model, System.out).run(System.in, () -> false, TopCommand::dimensions);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!quiet) {
            System.err.print(model.warnings());
            System.err.flush();
        }
    }

    /**
     * perf's annotate_parse_percent_type: local or global, period or hits, joined by '-' in either
     * order. It chooses the percentages of annotated instructions, which perf prints only in its
     * TUI's annotate view; the stdio report is the same whatever the type, so it is checked alone.
     */
    static void percentType(String type) {
        int dash = type.indexOf('-');
        if (dash >= 0) {
            String a = type.substring(0, dash);
            String b = type.substring(dash + 1);
            if (isPercentType(a, b) || isPercentType(b, a)) {
                return;
            }
        }
        throw new UsageException("option '--percent-type': " + type
                + ": expected local-period, global-period, local-hits or global-hits");
    }

    private static boolean isPercentType(String scope, String what) {
        return (scope.equals("local") || scope.equals("global")) && (what.equals("period") || what.equals("hits"));
    }

    /** {@code jperf flamegraph}: the report written as a flame graph to {@code file}. */
    void flamegraph(String file) {
        if (flamegraph == null || file != null) {
            flamegraph = file == null ? FLAMEGRAPH_FILE : file;
        }
    }

    /** -D (every record, perf's dump, then the stats) or --stats. */
    private int readAll() {
        PrintStream out = Input.stdout();
        try (PerfDataFile file = Input.open(input, force)) {
            if (dumpRawTrace) {
                RawDump.print(file, out, true, skipEmpty);
            } else {
                EventStats.of(file).print(out, skipEmpty);
            }
            out.flush();
            Input.printWarnings(file, System.err);
        }
        return 0;
    }

    /**
     * perf_session__cpu_bitmap's check: -C needs each sample type's CPU, looked up in the first
     * event of each attr type. Says perf's line and answers true when the file lacks it.
     */
    static boolean lacksCpus(PerfDataFile f) {
        Set<Integer> types = new HashSet<>();
        for (dev.jperf.format.header.EventDesc e : f.events()) {
            if (types.add(e.attr().type()) && (e.attr().sampleType() & PerfEventAttr.PERF_SAMPLE_CPU) == 0) {
                System.err.println("File does not contain CPU events. Remove -C option to proceed.");
                return true;
            }
        }
        return false;
    }

    private static Set<Integer> asSet(List<Integer> ids) {
        return ids == null ? null : new HashSet<>(ids);
    }

    /** perf's CPU list syntax ("0-2,4"); null (no filter) when not given. */
    static Set<Integer> parseCpus(String list) {
        return list == null ? null : new HashSet<>(CpuList.parse(list));
    }
}
