package dev.jperf.cli;

import dev.jperf.format.writer.PerfDataCopier;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jperf inject [-i IN] -o OUT}: perf inject without options, rewriting a perf.data (file
 * or pipe mode, or a pipe-mode stream on stdin) as a file-mode perf.data that perf 6.1 reads; a
 * damaged input's readable part becomes a sound file.
 */
@Command(name = "inject", sortOptions = false,
        description = "Copy a perf.data (file or pipe mode) to a file-mode perf.data that Linux perf 6.1 reads;"
                + " what is readable of a damaged file is kept")
final class InjectCommand implements Callable<Integer> {
    @Option(names = {"-i", "--input"}, paramLabel = "<file>",
            description = "input file name, or - for a pipe-mode stream on stdin (the default)")
    String input = "-";

    @Option(names = {"-o", "--output"}, paramLabel = "<file>",
            description = "output file name; an existing one is renamed <file>.old")
    String output = "-";

    @Override
    public Integer call() throws IOException {
        if (output.equals("-")) {
            throw new IllegalArgumentException("a file-mode perf.data cannot be written to a pipe: give -o <file>");
        }
        PerfDataCopier.Result r = input.equals("-")
                ? PerfDataCopier.copy("stdin", System.in, Path.of(output))
                : PerfDataCopier.copy(Path.of(input), Path.of(output));
        r.warnings().forEach(w -> System.err.println("warning: " + w));
        return 0;
    }
}
