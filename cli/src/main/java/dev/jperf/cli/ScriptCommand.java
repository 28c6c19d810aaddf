package dev.jperf.cli;

import dev.jperf.report.session.Machine;
import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.cli.options.UsageException;
import dev.jperf.format.PerfDataFile;
import dev.jperf.report.Report;
import dev.jperf.report.export.Exports;
import dev.jperf.report.header.HeaderReport;
import dev.jperf.report.script.Script;
import dev.jperf.report.session.SampleFilter;
import dev.jperf.report.symbol.SymbolResolver;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** {@code jperf script}: perf script's options, spelled as perf spells them. */
final class ScriptCommand implements Subcommand {
    private Path buildIdDir;
    private String input;
    /** -f/--force: a file of another user read all the same. */
    private boolean force;
    private String fields;
    private Path kallsyms;
    private Path symfs;
    private boolean hideCallGraph;
    private int maxStack = Machine.PERF_MAX_STACK_DEPTH;
    private boolean showBpfEvents;
    private boolean stitchLbr;
    private boolean showMmapEvents;
    private boolean showTaskEvents;
    private boolean showLostEvents;
    private boolean showSwitchEvents;
    private boolean showNamespaceEvents;
    private boolean showCgroupEvents;
    private boolean showRoundEvents;
    private boolean demangle = true;
    private boolean fullSourcePath;
    private boolean inline = true;
    private boolean json;
    private boolean folded;
    private boolean header;
    private boolean headerOnly;
    /** -I: the header's every section (with --header/--header-only; alone it changes nothing, as in perf). */
    private boolean showInfo;
    private boolean reltime;
    private boolean deltatime;
    private boolean nanoseconds;
    /** -s/--script as given, checked when run (a command line error all the same). */
    private String script;
    /** -s/--script: the engine its language names ("Perl" or "Python"), or null. */
    private String scriptEngine;
    /** -s lang: perf lists the languages and exits. */
    private boolean listLanguages;
    /** -g/--gen-script: the language asked for, checked when run (as perf does). */
    private String genScript;
    private String comms;
    private String pids;
    private String tids;
    private String cpus;
    private String time;
    private String dsos;
    private String symbols;
    private long addrRange;
    private String stopBt;
    private boolean debugMode;

    @Override
    public String name() {
        return "script";
    }

    @Override
    public String summary() {
        return "Read perf.data and display the trace output (perf script)";
    }

    @Override
    public Options options() {
        return new Options("jperf script [<options>]")
                .value('i', "input", "file", Input.HELP)
                .flag('f', "force", "don't complain, do it")
                .value('F', "fields", "str", "comma separated output fields: comm,tid,pid,time,cpu,event,ip,sym,symoff,"
                        + "dso,srcline,period,addr,iregs,uregs,brstack,brstacksym; +f/-f edit the defaults")
                .value('\0', "kallsyms", "file", "kallsyms pathname")
                .value('\0', "symfs", "directory", "look for files with symbols relative to this directory")
                .value('c', "comms", "comm[,comm...]", "only display events for these comms")
                .value('\0', "pid", "pid[,pid...]", "only consider symbols in these pids")
                .value('\0', "tid", "tid[,tid...]", "only consider symbols in these tids")
                .value('C', "cpu", "cpu", "list of cpus to profile")
                .value('\0', "time", "str", "Time span of interest (start,stop)")
                .value('\0', "dsos", "dso[,dso...]", "only consider symbols in these DSOs")
                .value('S', "symbols", "symbol[,symbol...]", "only consider these symbols")
                .value('\0', "addr-range", "n", "Use with -S to list traced records within address range")
                .value('\0', "stop-bt", "symbol[,symbol...]", "Stop display of callgraph at these symbols")
                .flag('d', "debug-mode", "do various checks like samples ordering and lost events")
                .flag('G', "hide-call-graph", "when printing symbols do not display call chain")
                .value('\0', "max-stack", "n", "Set the maximum stack depth when parsing the callchain, anything beyond"
                        + " the specified depth will be ignored. Default: " + Machine.PERF_MAX_STACK_DEPTH)
                .flag('\0', "show-task-events", "show task related events (COMM, FORK, EXIT)")
                .flag('\0', "show-mmap-events", "show mmap related events (MMAP, MMAP2)")
                .flag('\0', "show-switch-events", "show context switch events (SWITCH, SWITCH_CPU_WIDE)")
                .flag('\0', "show-namespace-events", "show namespace events (NAMESPACES)")
                .flag('\0', "show-lost-events", "show lost events (LOST)")
                .flag('\0', "show-round-events", "show round events (FINISHED_ROUND); records are then printed in file"
                        + " order, as perf does")
                .flag('\0', "show-bpf-events", "show bpf related events (KSYMBOL, BPF_EVENT)")
                .flag('\0', "show-cgroup-events", "show cgroup events (CGROUP)")
                .flag('\0', "full-source-path", "Show full source file name path for source lines")
                .flag('\0', "demangle-kernel", "Enable kernel symbol demangling (perf demangles a vmlinux's or a module's"
                        + " ELF symbols; the kallsyms names jperf reads stay as they are, as in perf)")
                .flag('\0', "demangle", "demangle symbol names (default; --no-demangle shows them as in the file)")
                .flag('\0', "inline", "show inlined functions in DWARF-unwound call chains (default; --no-inline: none)")
                .flag('\0', "json", "one JSON object per line instead of text")
                .flag('\0', "reltime", "Show time stamps relative to start")
                .flag('\0', "deltatime", "Show time stamps relative to previous event")
                .flag('\0', "ns", "Use 9 decimal places when displaying time")
                .flag('\0', "folded", "collapsed stacks instead: one line per distinct stack, comm;caller;...;leaf"
                        + " count (perf's stackcollapse script, stackcollapse-perf.pl)")
                .value('s', "script", "name", "script file name (lang:script name, script name, or *): refused,"
                        + " jperf has no Perl or Python engine (jperf script --json feeds a script of your own)")
                .value('g', "gen-script", "lang", "generate perf-script.xx script in specified language: refused, as -s")
                .value('\0', "buildid-dir", "dir", "the build-id cache (default: $PERF_BUILDID_DIR, else ~/.debug)")
                .flag('\0', "header", "Show data header.")
                .flag('\0', "header-only", "Show only data header.")
                .flag('I', "show-info", "display extended information from perf.data file")
                .flag('\0', "stitch-lbr", "Enable LBR callgraph stitching approach (switched off, saying so, on a"
                        + " file without LBR call stacks, as in perf; not done by jperf on one with them)");
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
            case "fields" -> fields = v.text();
            case "kallsyms" -> kallsyms = Path.of(v.text());
            case "symfs" -> symfs = Path.of(v.text());
            case "hide-call-graph" -> hideCallGraph = v.on();
            case "max-stack" -> maxStack = (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v.integer()));
            case "show-task-events" -> showTaskEvents = v.on();
            case "show-mmap-events" -> showMmapEvents = v.on();
            case "show-switch-events" -> showSwitchEvents = v.on();
            case "show-namespace-events" -> showNamespaceEvents = v.on();
            case "show-lost-events" -> showLostEvents = v.on();
            case "show-round-events" -> showRoundEvents = v.on();
            case "show-bpf-events" -> showBpfEvents = v.on();
            case "stitch-lbr" -> stitchLbr = v.on();
            case "show-cgroup-events" -> showCgroupEvents = v.on();
            case "demangle" -> demangle = v.on();
            case "full-source-path" -> fullSourcePath = v.on();
            case "demangle-kernel" -> { } // kallsyms names: perf demangles none of them either
            case "inline" -> inline = v.on();
            case "json" -> json = v.on();
            case "folded" -> folded = v.on();
            case "header" -> header = v.on();
            case "header-only" -> headerOnly = v.on();
            case "show-info" -> showInfo = v.on();
            case "reltime" -> reltime = v.on();
            case "deltatime" -> deltatime = v.on();
            case "ns" -> nanoseconds = v.on();
            case "script" -> script = v.text();
            case "gen-script" -> genScript = v.text();
            case "comms" -> comms = v.text();
            case "pid" -> pids = v.text();
            case "tid" -> tids = v.text();
            case "cpu" -> cpus = v.text();
            case "time" -> time = v.text();
            case "dsos" -> dsos = v.text();
            case "symbols" -> symbols = v.text();
            case "stop-bt" -> stopBt = v.text();
            case "debug-mode" -> debugMode = v.on();
            case "addr-range" -> addrRange = v.perfInt();
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    /** perf's script_spec__lookup: the languages perf registers (Perl, pl, Python, py), any case. */
    private static String engine(String spec) {
        return switch (spec.toLowerCase(java.util.Locale.ROOT)) {
            case "perl", "pl" -> "Perl";
            case "python", "py" -> "Python";
            default -> null;
        };
    }

    /** perf's parse_scriptname: "lang" lists the languages; else lang:script, or a script named by its extension. */
    private void scriptName(String s) {
        if (s.equals("lang")) {
            listLanguages = true;
            return;
        }
        int colon = s.indexOf(':');
        if (colon >= 0) {
            scriptEngine = engine(s.substring(0, colon));
            if (scriptEngine == null) {
                throw new UsageException("-s " + s + ": invalid language specifier (Perl, pl, Python or py)");
            }
            return;
        }
        int dot = s.lastIndexOf('.');
        scriptEngine = dot < 0 ? null : engine(s.substring(dot + 1));
        if (scriptEngine == null) {
            throw new UsageException("-s " + s + ": invalid script extension (.pl or .py)");
        }
    }

    /**
     * What perf built without an engine does with -s or -g (the unsupported scripting ops): one
     * message, exit -1.
     */
    private static int noEngine(String engine) {
        System.err.println("jperf script: " + engine + " scripting not supported: jperf has no Perl or Python engine"
                + " (jperf script --json gives each sample to a program of your own)");
        return 255;
    }

    @Override
    public int call() {
        if (script != null) {
            scriptName(script);
        }
        if (listLanguages) {
            // perf's list_available_languages: the languages it registers, supported or not
            System.err.print("\nScripting language extensions (used in perf script -s [spec:]script.[spec]):\n\n");
            for (String[] l : new String[][] {{"Perl", "Perl"}, {"pl", "Perl"}, {"Python", "Python"}, {"py", "Python"}}) {
                System.err.printf(java.util.Locale.ROOT, "  %-42s [%s]\n", l[0], l[1]);
            }
            System.err.print("\n");
            return 0;
        }
        if (genScript != null) {
            if (fields != null) {
                System.err.println("jperf script: custom fields not supported for generated scripts");
                return 234; // perf's -EINVAL
            }
            try (PerfDataFile file = Input.open(input, force)) {
                String engine = engine(genScript);
                if (engine == null) {
                    System.err.println("jperf script: -g " + genScript + ": invalid language specifier (Perl, pl, Python or py)");
                    return 254; // perf's -ENOENT
                }
                return noEngine(engine);
            }
        }
        if (scriptEngine != null) {
            try (PerfDataFile file = Input.open(input, force)) {
                return noEngine(scriptEngine);
            }
        }
        if (reltime && deltatime) {
            // perf's words and exit code (-1)
            System.err.println("reltime and deltatime - the two don't get along well. Please limit to --reltime or --deltatime.");
            return 255;
        }
        if ((header || headerOnly) && (json || folded)) {
            throw new UsageException("--header" + (headerOnly ? "-only" : "") + " prints perf's text header: not with "
                    + (json ? "--json" : "--folded"));
        }
        try (PerfDataFile file = Input.open(input, force)) {
            // a stream's features come as records: perf script prints them as they arrive (with
            // --header, or -I alone), and --header-only stops before the first
            boolean fixed = header || headerOnly;
            boolean features = header || (!headerOnly && showInfo && file.isPipe()) || (headerOnly && !file.isPipe());
            if (fixed || features) {
                // perf script's header is perf report's (perf_header__fprintf_info)
                ByteArrayOutputStream text = new ByteArrayOutputStream();
                HeaderReport.print(file, showInfo, new PrintStream(text, true, StandardCharsets.UTF_8));
                String h = text.toString(StandardCharsets.UTF_8);
                int end = fixedPartEnd(h);
                System.out.print((fixed ? h.substring(0, end) : "") + (features ? h.substring(end) : ""));
                if (headerOnly) {
                    System.out.flush();
                    Input.printWarnings(file, System.err);
                    return 0;
                }
            }
            if (folded) {
                Exports.folded(file, SymbolResolver.Options.defaults(kallsyms, symfs, buildIdDir).withDemangle(demangle).withInline(inline)
                        .withFullSourcePath(fullSourcePath),
                        System.out, System.err);
                System.out.flush();
                Input.printWarnings(file, System.err);
                return 0;
            }
            if (cpus != null && ReportCommand.lacksCpus(file)) {
                return 255;
            }
            if (stitchLbr) {
                if (Report.lbrCallchains(file)) {
                    throw new IllegalArgumentException("--stitch-lbr: LBR call stacks are not stitched by jperf yet");
                }
                System.err.print(Report.LBR_WARNING);
            }
            if (reltime && time != null && file.features().sampleTime().map(t -> t.first() == 0 && t.last() == 0).orElse(true)) {
                // perf_time__parse_for_ranges_reltime needs HEADER_SAMPLE_TIME (-EINVAL without)
                System.err.print("HINT: no first/last sample time found in perf data.\n"
                        + "Please use latest perf binary to execute 'perf record'\n"
                        + "(if '--buildid-all' is enabled, please set '--timestamp-boundary').\n");
                return 234;
            }
            // script buffers its own bytes (64 KiB writes); System.out only passes them on
            Script.run(file, Script.Options.defaults().withBuildIdDir(buildIdDir).withSymbols(kallsyms, symfs).withFields(fields)
                    .withHideCallGraph(hideCallGraph).withJson(json).withDemangle(demangle).withInline(inline)
                    .withTime(reltime ? Script.TimeBase.FIRST : deltatime ? Script.TimeBase.PREVIOUS : Script.TimeBase.BOOT)
                    .withNanoseconds(nanoseconds).withMaxStack(maxStack).withFilter(filter(file))
                    .withDebugMode(debugMode).withFullSourcePath(fullSourcePath).withStopBt(stopBt == null ? Set.of() : CommaList.strings(stopBt))
                    .withShow(Script.Show.BPF, showBpfEvents).withShow(Script.Show.MMAP, showMmapEvents)
                    .withShow(Script.Show.TASK, showTaskEvents).withShow(Script.Show.LOST, showLostEvents)
                    .withShow(Script.Show.SWITCH, showSwitchEvents).withShow(Script.Show.NAMESPACE, showNamespaceEvents)
                    .withShow(Script.Show.CGROUP, showCgroupEvents).withShow(Script.Show.ROUND, showRoundEvents),
                    System.out);
            System.out.flush();
            Input.printWarnings(file, System.err);
        }
        return 0;
    }

    /** The sample filters, spelled and read as report's; with --reltime, --time counts from the first sample. */
    private SampleFilter filter(PerfDataFile file) {
        SampleFilter f = SampleFilter.tasks(CommaList.strings(comms), asSet(CommaList.ints("--pid", pids)),
                asSet(CommaList.ints("--tid", tids)))
                .withCpus(ReportCommand.parseCpus(cpus)).withDsos(CommaList.strings(dsos))
                .withAddrRange(addrRange).withSymbols(CommaList.strings(symbols)).withTime(time);
        return reltime ? f.withTimeShifted(file.features().sampleTime().map(t -> t.first()).orElse(0L)) : f;
    }

    private static Set<Integer> asSet(List<Integer> ids) {
        return ids == null ? null : new HashSet<>(ids);
    }

    /** Where the header's fixed part ends: the line after its second "# ========" rule. */
    private static int fixedPartEnd(String header) {
        int at = 0;
        for (int rules = 0; rules < 2; rules++) {
            int r = header.indexOf("# ========\n", at);
            if (r < 0) {
                return header.length();
            }
            at = r + "# ========\n".length();
        }
        int next = header.indexOf('\n', at);
        return next < 0 ? header.length() : next + 1;
    }
}
