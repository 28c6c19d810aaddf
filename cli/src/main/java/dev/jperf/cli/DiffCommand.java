package dev.jperf.cli;

import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.cli.options.UsageException;
import dev.jperf.format.PerfDataFile;
import dev.jperf.report.Report;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.report.diff.DiffReport;
import dev.jperf.report.session.SampleFilter;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code jperf diff [BASE [NEW...]]}: perf diff's view of recordings (perf.data.old and perf.data
 * without arguments): per event the baseline's share and each other file's change per entry.
 */
final class DiffCommand implements Subcommand {
    /** perf's exit when cmd_diff returns -1 (-c cycles without branch stacks in every file, -o out of limit). */
    static final int EXIT_FAILURE = 255;
    /** perf's exit for a --time it cannot read (-EINVAL). */
    static final int EXIT_EINVAL = 234;
    private Path kallsyms;
    private Path symfs;
    private Path buildIdDir;
    private List<String> files = List.of("perf.data.old", "perf.data");
    private DiffReport.Compute compute = DiffReport.Compute.DELTA_ABS;
    private boolean cycles;
    private boolean cyclesHist;
    private long w1;
    private long w2;
    private long order = 1;
    private boolean periods;
    private boolean formula;
    private boolean baselineOnly;
    private boolean quiet;
    private String separator;
    private String sort;
    private String percentage = "absolute";
    private String comms;
    private String dsos;
    private String symbols;
    private String cpus;
    private String pids;
    private String tids;
    private String time;
    private boolean bpfByName = true;

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
                .flag('q', "quiet", "Do not show any warnings or messages")
                .flag('b', "baseline-only", "Show only items with match in baseline")
                .value('c', "compute", "delta,delta-abs,ratio,wdiff:w1,w2 (default delta-abs),cycles",
                        "Entries differential computation selection")
                .flag('p', "period", "Show period values.")
                .flag('F', "formula", "Show formula.")
                .flag('\0', "cycles-hist", "Show cycles histogram and standard deviation - WARNING: use only with -c cycles.")
                .flag('f', "force", "don't complain, do it")
                .value('\0', "kallsyms", "file", "kallsyms pathname")
                .value('d', "dsos", "dso[,dso...]", "only consider symbols in these dsos")
                .value('C', "comms", "comm[,comm...]", "only consider symbols in these comms")
                .value('S', "symbols", "symbol[,symbol...]", "only consider these symbols")
                .value('s', "sort", "key[,key2...]", "sort by key(s): pid, comm, dso, symbol, cpu, srcline, srcfile (default dso,symbol)")
                .value('t', "field-separator", "separator",
                        "separator for columns, no spaces will be added between columns '.' is reserved.")
                .value('\0', "symfs", "directory", "Look for files with symbols relative to this directory")
                .value('o', "order", "n", "Specify compute sorting.")
                .value('\0', "percentage", "relative|absolute", "How to display percentage of filtered entries")
                .value('\0', "time", "str", "Time span (absolute timestamps start,stop; one per file with ':')")
                .value('\0', "cpu", "cpu", "list of cpus to profile")
                .value('\0', "pid", "pid[,pid...]", "only consider symbols in these pids")
                .value('\0', "tid", "tid[,tid...]", "only consider symbols in these tids")
                .flag('\0', "bpf-by-name", "pair a BPF program's functions across files by program and function name,"
                        + " whatever their tag (default; --no-bpf-by-name pairs them as perf: by tag and address)")
                .value('\0', "buildid-dir", "dir", "the build-id cache (default: $PERF_BUILDID_DIR, else ~/.debug)");
    }

    @Override
    public void buildIdDir(Path dir) {
        buildIdDir = dir;
    }

    @Override
    public void set(String name, OptionValue v) {
        switch (name) {
            case "quiet" -> quiet = v.on();
            case "baseline-only" -> baselineOnly = v.on();
            case "compute" -> compute(v.text());
            case "period" -> periods = v.on();
            case "formula" -> formula = v.on();
            case "cycles-hist" -> cyclesHist = v.on();
            case "force" -> {
                // perf's check of the files' owner: jperf reads any file it can open
            }
            case "kallsyms" -> kallsyms = Path.of(v.text());
            case "dsos" -> dsos = v.text();
            case "comms" -> comms = v.text();
            case "symbols" -> symbols = v.text();
            case "sort" -> sort = v.text();
            case "field-separator" -> {
                if (v.text().isEmpty()) {
                    throw new UsageException("-t/--field-separator: an empty separator");
                }
                separator = v.text();
            }
            case "symfs" -> symfs = Path.of(v.text());
            case "order" -> order = orderValue(v.text());
            case "percentage" -> percentage = v.text();
            case "time" -> time = v.text();
            case "cpu" -> cpus = v.text();
            case "pid" -> pids = v.text();
            case "tid" -> tids = v.text();
            case "buildid-dir" -> buildIdDir = Path.of(v.text());
            case "bpf-by-name" -> bpfByName = v.on();
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    /** OPT_UINTEGER: a decimal number of 32 bits. */
    private static long orderValue(String s) {
        try {
            long n = Long.parseLong(s);
            if (n < 0 || n > 0xffffffffL) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException("-o/--order " + s + ": expects a file number (0, 1...)");
        }
    }

    /** setup_compute: METHOD, or wdiff:W1,W2 (both weights non-zero). */
    private void compute(String text) {
        int colon = text.indexOf(':');
        String method = colon < 0 ? text : text.substring(0, colon);
        String arg = colon < 0 ? null : text.substring(colon + 1);
        cycles = false;
        switch (method) {
            case "delta" -> compute = DiffReport.Compute.DELTA;
            case "delta-abs" -> compute = DiffReport.Compute.DELTA_ABS;
            case "ratio" -> compute = DiffReport.Compute.RATIO;
            case "cycles" -> cycles = true;
            case "wdiff" -> {
                compute = DiffReport.Compute.WDIFF;
                int comma = arg == null ? -1 : arg.indexOf(',');
                if (comma < 0 || comma == arg.length() - 1) {
                    throw new UsageException("-c " + text + ": wrong weight data, use 'wdiff:w1,w2'");
                }
                w1 = strtol(arg.substring(0, comma));
                w2 = strtol(arg.substring(comma + 1));
                if (w1 == 0 || w2 == 0) {
                    throw new UsageException("-c " + text + ": wrong weight data, use 'wdiff:w1,w2' (non-zero weights)");
                }
                return;
            }
            default -> throw new UsageException("-c " + text + ": not a computation method (use 'delta', 'delta-abs', 'ratio',"
                    + " 'wdiff:w1,w2' or 'cycles')");
        }
        if (arg != null) {
            throw new UsageException("-c " + text + ": extra option specified '" + arg + "'");
        }
    }

    /** strtol(s, NULL, 10): the leading decimal number, 0 when there is none. */
    private static long strtol(String s) {
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        int start = i;
        if (i < s.length() && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
            i++;
        }
        int digits = i;
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
        if (i == digits) {
            return 0;
        }
        try {
            return Long.parseLong(s.substring(start, i));
        } catch (NumberFormatException e) {
            return s.charAt(start) == '-' ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    @Override
    public void arguments(List<String> positional, List<String> all) {
        if (positional.size() == 1) {
            // perf diff FILE: perf.data.old against FILE
            files = List.of("perf.data.old", positional.get(0));
        } else if (positional.size() > 1) {
            files = List.copyOf(positional);
        }
    }

    @Override
    public int call() {
        try {
            return diff();
        } catch (BadTime e) {
            System.err.println("jperf diff: " + e.getMessage());
            return EXIT_EINVAL;
        }
    }

    private int diff() {
        if (cyclesHist && !cycles) {
            throw new UsageException("--cycles-hist: only with -c cycles");
        }
        if (order >= files.size()) {
            // perf: "Order option out of limit.", cmd_diff's -1
            System.err.println("jperf diff: -o/--order " + order + ": Order option out of limit (the files are numbered 0 to "
                    + (files.size() - 1) + ")");
            return EXIT_FAILURE;
        }
        boolean relative;
        if (!percentage.isEmpty() && "relative".startsWith(percentage)) {
            relative = true;
        } else if (!percentage.isEmpty() && "absolute".startsWith(percentage)) {
            relative = false;
        } else {
            throw new UsageException("--percentage " + percentage + ": expected relative or absolute");
        }
        List<SortKey> keys = null;
        if (sort != null) {
            try {
                keys = SortKey.parse(sort);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        if (kallsyms != null && !java.nio.file.Files.isRegularFile(kallsyms)) {
            throw new IllegalArgumentException(kallsyms + ": kallsyms file not found");
        }
        SampleFilter filter = SampleFilter.tasks(CommaList.strings(comms), asSet(CommaList.ints("--pid", pids)),
                asSet(CommaList.ints("--tid", tids)))
                .withCpus(ReportCommand.parseCpus(cpus)).withDsos(CommaList.strings(dsos)).withSymbols(CommaList.strings(symbols));
        List<String> times = timeRanges();
        PrintStream out = Input.stdout();
        List<PerfDataFile> opened = new ArrayList<>();
        try {
            List<DiffReport.Input> inputs = new ArrayList<>();
            for (int i = 0; i < files.size(); i++) {
                String name = files.get(i);
                PerfDataFile f = Input.open(name);
                opened.add(f);
                String range = times == null ? null : absolute(times.get(i), f);
                Report.Options o = Report.Options.builder(Path.of(name)).symbols(kallsyms, symfs).buildIdDir(buildIdDir)
                        .branchStack(false).filter(filter.withTime(range))
                        .percent(0, relative).build();
                inputs.add(new DiffReport.Input(f, name, o));
            }
            if (cycles) {
                for (PerfDataFile f : opened) {
                    if (!f.featureBits().contains(dev.jperf.format.feature.Feature.BRANCH_STACK.bit())) {
                        // perf: check_file_brstack, then cmd_diff returns -1 without a word
                        System.err.println("jperf diff: -c cycles: " + f.name() + " has no branch stacks (record with -b)");
                        return EXIT_FAILURE;
                    }
                }
                throw new IllegalArgumentException("-c cycles: the cycles of basic blocks are not done by jperf yet");
            }
            DiffReport.View view = new DiffReport.View(compute, w1, w2, (int) order, periods, formula, baselineOnly, relative,
                    separator, quiet, false, keys, bpfByName);
            DiffReport.print(inputs, view, out);
            if (!quiet) {
                for (PerfDataFile f : opened) {
                    Input.printWarnings(f, System.err);
                }
            }
        } finally {
            for (PerfDataFile f : opened) {
                f.close();
            }
        }
        return 0;
    }

    /**
     * --time per file: "start,stop" for every file, or one range per file separated by ':'
     * (perf's parse_absolute_time); null without --time.
     */
    private List<String> timeRanges() {
        if (time == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        if (time.indexOf(':') < 0) {
            for (int i = 0; i < files.size(); i++) {
                out.add(time);
            }
            return out;
        }
        String[] parts = time.split(":", -1);
        if (parts.length != files.size()) {
            throw new BadTime("--time " + time + ": one start,stop per file, separated by ':' (" + files.size() + " files)");
        }
        for (String p : parts) {
            if (p.isEmpty()) {
                throw new BadTime("--time " + time + ": Invalid time string");
            }
            out.add(p);
        }
        return out;
    }

    /**
     * perf's time percent forms (perf_time__parse_for_ranges) as the file's start,stop in seconds:
     * {@code P%/N}, the N-th slice of P % of the time from the first sample to the last, and
     * {@code A%-B%}; a range in seconds as it is.
     */
    static String absolute(String range, PerfDataFile f) {
        if (range.indexOf('%') < 0) {
            return range;
        }
        if (range.indexOf(',') >= 0) {
            throw new BadTime("--time " + range + ": one time percent range (jperf takes no lists of them)");
        }
        double from;
        double to;
        int slash = range.indexOf('/');
        int dash = range.indexOf('-');
        if (slash >= 0) {
            double size = percent(range.substring(0, slash), range);
            int n;
            try {
                n = Integer.parseInt(range.substring(slash + 1));
            } catch (NumberFormatException e) {
                throw new BadTime("--time " + range + ": Invalid time string");
            }
            if (size <= 0) {
                throw new BadTime("--time " + range + ": Invalid time string");
            }
            from = size * (n - 1);
            to = size * n;
        } else if (dash >= 0) {
            from = percent(range.substring(0, dash), range);
            to = percent(range.substring(dash + 1), range);
        } else {
            throw new BadTime("--time " + range + ": Invalid time string (P%/N or A%-B%)");
        }
        if (from < 0 || from > 1 || to < 0 || to > 1) {
            throw new BadTime("--time " + range + ": Invalid time string (beyond 0% to 100%)");
        }
        dev.jperf.format.feature.SampleTime t = f.features().sampleTime().orElse(null);
        if (t == null || t.first() == 0 && t.last() == 0) {
            // perf: "HINT: no first/last sample time found in perf data."
            throw new BadTime("--time " + range + ": " + f.name() + " has no first/last sample time"
                    + " (HEADER_SAMPLE_TIME) for time percents");
        }
        // set_percent_time: rounded shares of the span; an end short of the last sample one ns earlier
        long total = t.last() - t.first();
        long start = t.first() + Math.round(from * total);
        long end = t.first() + Math.round(to * total);
        if (end > start && end != t.last()) {
            end -= 1;
        }
        return seconds(start) + "," + seconds(end);
    }

    /** "10%" (or "10") as 0.10. */
    private static double percent(String s, String range) {
        String v = s.endsWith("%") ? s.substring(0, s.length() - 1) : s;
        try {
            return Double.parseDouble(v) / 100;
        } catch (NumberFormatException e) {
            throw new BadTime("--time " + range + ": Invalid time string");
        }
    }

    private static String seconds(long ns) {
        return Long.toUnsignedString(ns / 1_000_000_000L) + "." + String.format(java.util.Locale.ROOT, "%09d", ns % 1_000_000_000L);
    }

    /** A --time perf refuses with -EINVAL (exit 234). */
    static final class BadTime extends IllegalArgumentException {
        BadTime(String message) {
            super(message);
        }
    }

    private static Set<Integer> asSet(List<Integer> ids) {
        return ids == null ? null : new HashSet<>(ids);
    }
}
