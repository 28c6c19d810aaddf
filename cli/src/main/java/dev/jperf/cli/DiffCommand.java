package dev.jperf.cli;

import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.cli.options.UsageException;
import dev.jperf.format.PerfDataFile;
import dev.jperf.report.Report;
import dev.jperf.report.diff.DiffReport;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code jperf diff [OLD [NEW]]}: perf diff's default view of two recordings (perf.data.old and
 * perf.data without arguments): per event the baseline's share and the change of each DSO's symbol.
 */
final class DiffCommand implements Subcommand {
    private Path kallsyms;
    private Path symfs;
    private Path buildIdDir;
    private String older = "perf.data.old";
    private String newer = "perf.data";
    private DiffReport.Compute compute = DiffReport.Compute.DELTA_ABS;
    private boolean periods;

    @Override
    public String name() {
        return "diff";
    }

    @Override
    public String summary() {
        return "Read perf.data files and display the differential profile";
    }

    @Override
    public Options options() {
        return new Options("jperf diff [<options>] [old_file] [new_file]")
                .flag('f', "force", "don't complain, do it")
                .value('c', "compute", "delta,delta-abs", "Entries differential computation selection (default delta-abs)")
                .flag('p', "period", "Show period values.")
                .value('\0', "kallsyms", "file", "kallsyms pathname")
                .value('\0', "symfs", "directory", "Look for files with symbols relative to this directory")
                .value('\0', "buildid-dir", "dir", "the build-id cache (default: $PERF_BUILDID_DIR, else ~/.debug)");
    }

    @Override
    public void buildIdDir(Path dir) {
        buildIdDir = dir;
    }

    @Override
    public void set(String name, OptionValue v) {
        switch (name) {
            case "kallsyms" -> kallsyms = Path.of(v.text());
            case "compute" -> compute = switch (v.text()) {
                case "delta" -> DiffReport.Compute.DELTA;
                case "delta-abs" -> DiffReport.Compute.DELTA_ABS;
                default -> throw new UsageException("-c " + v.text() + ": jperf computes delta and delta-abs"
                        + " (ratio, wdiff and cycles are not done yet)");
            };
            case "period" -> periods = v.on();
            case "symfs" -> symfs = Path.of(v.text());
            case "buildid-dir" -> buildIdDir = Path.of(v.text());
            case "force" -> {
                // perf's check of the files' owner: jperf reads any file it can open
            }
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public void arguments(List<String> positional, List<String> all) {
        if (positional.size() > 2) {
            throw new UsageException("at most two files: old_file new_file");
        }
        if (positional.size() == 2) {
            older = positional.get(0);
            newer = positional.get(1);
        } else if (positional.size() == 1) {
            // perf diff FILE: FILE against perf.data
            older = positional.get(0);
        }
    }

    @Override
    public int call() {
        PrintStream out = Input.stdout();
        try (PerfDataFile base = Input.open(older); PerfDataFile other = Input.open(newer)) {
            Report.Options bo = Report.Options.builder(Path.of(older)).symbols(kallsyms, symfs).buildIdDir(buildIdDir).build();
            Report.Options no = Report.Options.builder(Path.of(newer)).symbols(kallsyms, symfs).buildIdDir(buildIdDir).build();
            DiffReport.print(base, other, bo, no, new DiffReport.View(compute, periods), out);
            Input.printWarnings(base, System.err);
            Input.printWarnings(other, System.err);
        }
        return 0;
    }
}
