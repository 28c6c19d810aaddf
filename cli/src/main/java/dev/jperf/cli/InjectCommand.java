package dev.jperf.cli;

import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.format.writer.PerfDataCopier;
import java.io.IOException;
import java.nio.file.Path;

/**
 * {@code jperf inject [-i IN] -o OUT}: perf inject without options, rewriting a perf.data (file
 * or pipe mode, or a pipe-mode stream on stdin) as a file-mode perf.data that perf 6.1 reads; a
 * damaged input's readable part becomes a sound file.
 */
final class InjectCommand implements Subcommand {
    private String input = "-";
    private String output = "-";

    @Override
    public String name() {
        return "inject";
    }

    @Override
    public String summary() {
        return "Copy any readable perf.data to a file-mode perf.data that Linux perf 6.1 reads";
    }

    @Override
    public Options options() {
        return new Options("jperf inject [<options>]")
                .value('i', "input", "file", "input file name, or - for a pipe-mode stream on stdin (the default)")
                .value('o', "output", "file", "output file name; an existing one is renamed <file>.old");
    }

    @Override
    public void set(String name, OptionValue v) {
        switch (name) {
            case "input" -> input = v.text();
            case "output" -> output = v.text();
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public int call() throws IOException {
        if (output.equals("-")) {
            throw new IllegalArgumentException("a file-mode perf.data cannot be written to a pipe: give -o <file>");
        }
        PerfDataCopier.Result r = input.equals("-")
                ? PerfDataCopier.copy("stdin", System.in, Path.of(output))
                : PerfDataCopier.copy(Path.of(input), Path.of(output));
        for (String w : r.warnings()) {
            System.err.println("warning: " + w);
        }
        return 0;
    }
}
