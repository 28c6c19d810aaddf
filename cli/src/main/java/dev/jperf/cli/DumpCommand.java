package dev.jperf.cli;

import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.format.PerfDataFile;
import dev.jperf.report.dump.RawDump;
import java.io.PrintStream;

/** {@code jperf dump}: every record decoded, as {@code perf report -D} prints it, in file order. */
final class DumpCommand implements Subcommand {
    private String input;
    private boolean hex;

    @Override
    public String name() {
        return "dump";
    }

    @Override
    public String summary() {
        return "Print every record of a perf.data file, decoded";
    }

    @Override
    public Options options() {
        return new Options("jperf dump [<options>]")
                .value('i', "input", "file", Input.HELP)
                .flag('\0', "hex", "also print each record's bytes, as perf report -D does");
    }

    @Override
    public void set(String name, OptionValue v) {
        switch (name) {
            case "input" -> input = v.text();
            case "hex" -> hex = v.on();
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public int call() {
        PrintStream out = Input.stdout();
        try (PerfDataFile file = Input.open(input)) {
            RawDump.print(file, out, hex);
            out.flush();
            Input.printWarnings(file, System.err);
        }
        return 0;
    }
}
