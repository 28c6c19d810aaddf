package dev.jperf.cli;

import dev.jperf.format.PerfDataFile;
import dev.jperf.report.dump.RawDump;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code jperf dump}: every record decoded, as {@code perf report -D} prints it, in file order. */
@Command(name = "dump", mixinStandardHelpOptions = true, description = "Print every record of a perf.data file, decoded.")
public final class DumpCommand implements Callable<Integer> {

    @Option(names = {"-i", "--input"}, paramLabel = "FILE",
            description = "input file name (default: perf.data, or stdin when it is a pipe; - for stdin)")
    String input;

    @Option(names = "--hex", description = "also print each record's bytes, as perf report -D does")
    boolean hex;

    @Override
    public Integer call() {
        PrintStream out = Input.stdout();
        try (PerfDataFile file = Input.open(input)) {
            RawDump.print(file, out, hex);
            out.flush();
            Input.printWarnings(file, System.err);
        }
        return 0;
    }
}
