package dev.jperf.cli;

import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.cli.options.UsageException;
import dev.jperf.format.PerfDataFile;
import dev.jperf.nativeshim.Terminal;
import dev.jperf.report.annotate.Annotate;
import dev.jperf.report.session.SampleFilter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** {@code jperf annotate}: samples per instruction as perf annotate --stdio, JITed BPF functions per BPF source line (perf annotate's options). */
final class AnnotateCommand implements Subcommand {
    private Path buildIdDir;
    private String input;
    private boolean stdio;
    private boolean json;
    private Path kallsyms;
    private String symbol;
    private String dsos;
    private String percentType;
    private boolean asmRaw;
    private boolean source = true;
    private boolean showNrSamples;
    private boolean showTotalPeriod;
    private double percentLimit;
    private Path symfs;
    private boolean printLine;
    private boolean force;
    private boolean quiet;
    private boolean fullPaths;
    private String cpus;
    private boolean tui;

    @Override
    public String name() {
        return "annotate";
    }

    @Override
    public String summary() {
        return "Annotate functions with their samples per instruction (as perf), JITed BPF functions per BPF source line";
    }

    @Override
    public Options options() {
        return new Options("jperf annotate [<options>] [<symbol>]",
                "symbol: only this function (a BPF one also by BTF function or program name);",
                "BPF: the line tables stored in perf.data are used: works after the programs are gone")
                .value('i', "input", "file", Input.HELP)
                .value('d', "dsos", "dso[,dso...]", "only consider symbols in these dsos")
                .value('s', "symbol", "symbol", "symbol to annotate")
                .flag('\0', "asm-raw", "Display raw encoding of assembly instructions (default)")
                .flag('\0', "source", "Interleave source code with assembly code (default)")
                .flag('l', "print-line", "print matching source lines (may be slow)")
                .flag('n', "show-nr-samples", "Show a column with the number of samples")
                .flag('\0', "show-total-period", "Show a column with the sum of periods")
                .value('\0', "percent-limit", "percent", "Don't show entries under that percent")
                .value('\0', "symfs", "directory", "Look for files with symbols relative to this directory")
                .value('\0', "percent-type", "local-period", "Set percent type local/global-period/hits")
                .flag('\0', "stdio", "use the stdio interface (the default)")
                .flag('\0', "tui", "Use the TUI interface (perf's browser; not done: off a terminal perf prints"
                        + " the stdio output, jperf too, on one jperf refuses)")
                .flag('f', "force", "don't complain, do it")
                .flag('q', "quiet", "do not show any warnings or messages")
                .flag('P', "full-paths", "Don't shorten the displayed pathnames")
                .value('C', "cpu", "cpu", "list of cpus to profile")
                .flag('\0', "skip-missing", "Skip symbols that cannot be annotated (perf's TUI only: the stdio"
                        + " output skips them anyway)")
                .flag('\0', "demangle-kernel", "Enable kernel symbol demangling (perf demangles a vmlinux's or a"
                        + " module's ELF symbols; the kallsyms names jperf reads stay as they are, as in perf)")
                .flag('\0', "json", "print JSON instead")
                .value('\0', "kallsyms", "file", "kallsyms pathname")
                .value('\0', "buildid-dir", "dir", "the build-id cache (default: $PERF_BUILDID_DIR, else ~/.debug)");
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
            case "dsos" -> dsos = v.text();
            case "symbol" -> symbol = v.text();
            case "asm-raw" -> asmRaw = v.on();
            case "source" -> source = v.on();
            case "show-nr-samples" -> showNrSamples = v.on();
            case "show-total-period" -> showTotalPeriod = v.on();
            case "percent-limit" -> percentLimit = v.decimal();
            case "symfs" -> symfs = Path.of(v.text());
            case "print-line" -> printLine = v.on();
            case "percent-type" -> percentType = v.text();
            case "stdio" -> stdio = v.on();
            case "tui" -> tui = v.on();
            case "force" -> force = v.on();
            case "quiet" -> quiet = v.on();
            case "full-paths" -> fullPaths = v.on();
            case "cpu" -> cpus = v.text();
            case "skip-missing", "demangle-kernel" -> { } // see their help: perf's stdio output is the same either way
            case "json" -> json = v.on();
            case "kallsyms" -> kallsyms = Path.of(v.text());
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public void arguments(List<String> positional, List<String> all) {
        if (positional.size() > 1) {
            throw new UsageException("unexpected argument '" + positional.get(1) + "'");
        }
        if (!positional.isEmpty()) {
            symbol = positional.get(0);
        }
    }

    @Override
    public int call() {
        if (percentType != null) {
            ReportCommand.percentType(percentType); // checked as report checks it, when run
        }
        if (showNrSamples && showTotalPeriod) {
            // perf's parse-options: the two are PARSE_OPT_EXCLUSIVE (exit 129)
            throw new UsageException("option `show-total-period' cannot be used with show-nr-samples");
        }
        if (stdio && json) {
            throw new IllegalArgumentException("--stdio and --json exclude each other");
        }
        if (tui && !stdio && !json && Terminal.isTerminal(1)) {
            // perf opens its annotate browser on a terminal (off one it prints the stdio output)
            throw new UsageException("--tui: the terminal annotate browser is not done; use --stdio");
        }
        try (PerfDataFile file = Input.open(input, force)) {
            if (cpus != null && ReportCommand.lacksCpus(file)) {
                return 255;
            }
            Set<String> dsoSet = dsos == null ? null : new HashSet<>(Arrays.asList(dsos.split(",")));
            Annotate.run(file, new Annotate.Options(symbol, json, kallsyms, buildIdDir, dsoSet, percentType, asmRaw,
                    new Annotate.Display(source, showNrSamples, showTotalPeriod, percentLimit, symfs,
                            printLine, fullPaths),
                    SampleFilter.NONE.withCpus(ReportCommand.parseCpus(cpus))),
                    System.out, System.err);
            // perf's -q: the file's warnings are not said (its errors still are)
            if (!quiet) {
                Input.printWarnings(file, System.err);
            }
        }
        return 0;
    }
}
