package dev.jperf.cli;

import dev.jperf.format.PerfDataFile;
import dev.jperf.report.annotate.Annotate;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code jperf annotate}: samples of JITed BPF functions per BPF source line (perf annotate's options). */
@Command(name = "annotate", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Annotate JITed BPF functions with their samples per BPF source line, from the line"
                + " tables stored in perf.data (works after the programs are gone)")
final class AnnotateCommand implements Callable<Integer> {
    @Option(names = {"-i", "--input"}, paramLabel = "<file>",
            description = "input file name (default: perf.data, or stdin when it is a pipe; - for stdin)")
    String input;

    @Option(names = "--stdio", description = "use the stdio interface (the default)")
    boolean stdio;

    @Option(names = "--json", description = "print JSON instead")
    boolean json;

    @Option(names = {"-k", "--kallsyms"}, paramLabel = "<file>", description = "kallsyms file to resolve kernel symbols")
    Path kallsyms;

    @Parameters(paramLabel = "SYMBOL", arity = "0..1",
            description = "only this function (KSYMBOL name, BTF function name) or program (name)")
    String symbol;

    @Override
    public Integer call() {
        if (stdio && json) {
            throw new IllegalArgumentException("--stdio and --json exclude each other");
        }
        try (PerfDataFile file = Input.open(input)) {
            Annotate.run(file, new Annotate.Options(symbol, json, kallsyms), System.out, System.err);
            Input.printWarnings(file, System.err);
        }
        return 0;
    }
}
