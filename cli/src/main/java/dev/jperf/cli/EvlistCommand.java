package dev.jperf.cli;

import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.cli.options.UsageException;
import dev.jperf.format.PerfDataFile;
import dev.jperf.report.header.EventList;
import java.io.PrintStream;

/** {@code jperf evlist}: the events of a perf.data file, as {@code perf evlist} lists them. */
final class EvlistCommand implements Subcommand {
    private String input;
    private boolean verbose;
    private boolean freq;
    private boolean group;
    private boolean traceFields;

    @Override
    public String name() {
        return "evlist";
    }

    @Override
    public String summary() {
        return "List the event names in a perf.data file";
    }

    @Override
    public Options options() {
        return new Options("jperf evlist [<options>]")
                .flag('f', "force", "don't complain, do it")
                .flag('F', "freq", "Show the sample frequency")
                .flag('g', "group", "Show event group information")
                .value('i', "input", "file", "Input file name")
                .flag('v', "verbose", "Show all event attr details")
                .flag('\0', "trace-fields", "Show tracepoint fields");
    }

    @Override
    public void set(String name, OptionValue v) {
        switch (name) {
            case "input" -> input = v.text();
            case "force" -> {
                // perf's check of the file's owner; jperf reads any file it can open
            }
            case "freq" -> freq = v.on();
            case "group" -> group = v.on();
            case "verbose" -> verbose = v.on();
            case "trace-fields" -> traceFields = v.on();
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public int call() {
        if (group && (verbose || freq)) {
            throw new UsageException("--group option is not compatible with other options");
        }
        PrintStream out = Input.stdout();
        try (PerfDataFile file = Input.open(input)) {
            EventList.print(file, new EventList.Details(verbose, freq, group, traceFields), out);
        }
        return 0;
    }
}
