package dev.jperf.cli;

import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;

/**
 * {@code jperf flamegraph}: {@code jperf report --flamegraph} under a name of its own (perf has
 * {@code perf script report flamegraph}); report's options, and {@code -o} for the file.
 */
final class FlamegraphCommand implements Subcommand {
    private final ReportCommand report = new ReportCommand();
    private String output;

    @Override
    public String name() {
        return "flamegraph";
    }

    @Override
    public String summary() {
        return "Write an interactive flame graph (HTML) of perf.data";
    }

    @Override
    public Options options() {
        return report.options("jperf flamegraph [<options>]")
                .value('o', "output", "file", "the HTML file to write (default flamegraph.html; - for stdout)");
    }

    @Override
    public void set(String name, OptionValue v) {
        if ("output".equals(name)) {
            output = v.text();
        } else {
            report.set(name, v);
        }
    }

    @Override
    public void buildIdDir(java.nio.file.Path dir) {
        report.buildIdDir(dir);
    }

    @Override
    public int call() throws Exception {
        report.flamegraph(output);
        return report.call();
    }
}
