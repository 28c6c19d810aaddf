package dev.jperf.cli;

import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.cli.options.UsageException;
import dev.jperf.format.PerfDataFile;
import dev.jperf.report.annotate.Annotate;
import java.nio.file.Path;
import java.util.List;

/** {@code jperf annotate}: samples of JITed BPF functions per BPF source line (perf annotate's options). */
final class AnnotateCommand implements Subcommand {
    private Path buildIdDir;
    private String input;
    private boolean stdio;
    private boolean json;
    private Path kallsyms;
    private String symbol;

    @Override
    public String name() {
        return "annotate";
    }

    @Override
    public String summary() {
        return "Annotate JITed BPF functions with their samples per BPF source line";
    }

    @Override
    public Options options() {
        return new Options("jperf annotate [<options>] [<symbol>]",
                "symbol: only this function (KSYMBOL name, BTF function name) or program (name);",
                "the line tables stored in perf.data are used: works after the programs are gone")
                .value('i', "input", "file", Input.HELP)
                .flag('\0', "stdio", "use the stdio interface (the default)")
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
            case "stdio" -> stdio = v.on();
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
        symbol = positional.isEmpty() ? null : positional.get(0);
    }

    @Override
    public int call() {
        if (stdio && json) {
            throw new IllegalArgumentException("--stdio and --json exclude each other");
        }
        try (PerfDataFile file = Input.open(input)) {
            Annotate.run(file, new Annotate.Options(symbol, json, kallsyms, buildIdDir), System.out, System.err);
            Input.printWarnings(file, System.err);
        }
        return 0;
    }
}
