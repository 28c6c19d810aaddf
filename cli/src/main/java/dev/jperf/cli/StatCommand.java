package dev.jperf.cli;

import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.cli.options.UsageException;
import dev.jperf.nativeshim.Terminal;
import dev.jperf.recorder.stat.Aggr;
import dev.jperf.recorder.stat.StatOptions;
import dev.jperf.recorder.stat.StatSession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code jperf stat}: perf stat's options, same spellings; {@code -b} as perf's BPF build has it. */
final class StatCommand implements Subcommand {
    private final List<String> events = new ArrayList<>();
    private boolean allCpus;
    private String cpus;
    private String pids;
    private String tids;
    private String bpfIds;
    private long intervalMs;
    private long intervalCount;
    private int repeat = 1;
    private String separator;
    private boolean json;
    private Path output;
    private long timeoutMs;
    private boolean bpfCounters;
    private Path bpfAttrMap;
    private boolean nullRun;
    private boolean quiet;
    private Aggr aggr = Aggr.GLOBAL;
    private int delayMs;
    private String pre;
    private String post;
    private boolean append;
    private long logFd;
    private boolean summary;
    private boolean csvSummary = true;
    private int detailed;
    private boolean allUser;
    private boolean allKernel;
    private boolean noInherit;
    private boolean table;
    private boolean group;
    private String cputype;
    private String iostat;
    private boolean topdown;
    private long tdLevel;
    private boolean smiCost;
    private boolean intervalClear;
    private boolean scale = true;
    private boolean sync;
    /** -B given (not its default, nor --no-big-num): perf refuses it with -x */
    private boolean bigNumAsked;
    private List<String> command = List.of();

    @Override
    public String name() {
        return "stat";
    }

    @Override
    public String summary() {
        return "Run a command and gather performance counter statistics";
    }

    @Override
    public Options options() {
        return new Options("jperf stat [<options>] [<command>]")
                .stopAtNonOption()
                .value('e', "event", "event", "event selector, e.g. task-clock, page-faults, cycles (repeatable,"
                        + " comma lists)")
                .flag('a', "all-cpus", "system-wide collection from all CPUs")
                .value('C', "cpu", "cpu", "list of cpus to monitor in system-wide")
                .value('p', "pid", "pid", "stat events on existing process id")
                .value('t', "tid", "tid", "stat events on existing thread id")
                .value('b', "bpf-prog", "bpf-prog-id", "stat BPF programs by id (comma list): runs, run time,"
                        + " average run, from the kernel's BPF statistics")
                .flag('\0', "bpf-counters", "use BPF programs to count events: one leader per event shared by"
                        + " concurrent runs, a follower per run")
                .value('\0', "bpf-attr-map", "path", "path to the perf_event_attr map of --bpf-counters (default"
                        + " /sys/fs/bpf/perf_attr_map)")
                .value('I', "interval-print", "n", "print counts at regular interval in ms (>= 10)")
                .value('\0', "interval-count", "n", "print counts for fixed number of times")
                .flag('\0', "interval-clear", "clear screen in between new interval")
                .flag('\0', "scale", "Use --no-scale to disable counter scaling for multiplexing")
                .flag('S', "sync", "call sync() before starting a run")
                .value('r', "repeat", "n", "repeat command and print average + stddev")
                .value('x', "field-separator", "separator", "print counts with custom separator")
                .flag('j', "json-output", "print counts in JSON format")
                .flag('n', "null", "null run - dont start any counters")
                .flag('\0', "quiet", "don't print any output, messages or warnings (useful with record)")
                .value('o', "output", "file", "output file name")
                .value('\0', "timeout", "n", "stop workload and print counts after a timeout period in ms (>= 10ms)")
                .flag('A', "no-aggr", "disable CPU count aggregation")
                .flag('\0', "per-thread", "aggregate counts per thread")
                .flag('\0', "per-core", "aggregate counts per physical processor core")
                .flag('\0', "per-die", "aggregate counts per processor die")
                .flag('\0', "per-socket", "aggregate counts per processor socket")
                .flag('\0', "per-node", "aggregate counts per numa node")
                .value('D', "delay", "n", "ms to wait before starting measurement after program start (-1: start with"
                        + " events disabled)")
                .value('\0', "pre", "command", "command to run prior to the measured command")
                .value('\0', "post", "command", "command to run after to the measured command")
                .flag('\0', "append", "append to the output file")
                .value('\0', "log-fd", "n", "log output to fd, instead of stderr")
                .flag('\0', "summary", "print summary for interval mode")
                .flag('\0', "no-csv-summary", "don't print 'summary' for CSV summary output")
                .flag('d', "detailed", "detailed run - start a lot of events (repeat for more)")
                .flag('\0', "topdown", "measure top-down statistics (where perf can: system-wide, a PMU that has them)")
                .value('\0', "td-level", "n", "Set the metrics level for the top-down statistics (0: max level)")
                .flag('\0', "smi-cost", "measure SMI cost (where perf can: freeze_on_smi, msr/aperf/, msr/smi/)")
                .flag('\0', "all-user", "Configure all used events to run in user space.")
                .flag('\0', "all-kernel", "Configure all used events to run in kernel space.")
                .flag('i', "no-inherit", "child tasks do not inherit counters")
                .flag('g', "group", "put the counters into a counter group")
                .value('\0', "cputype", "hybrid cpu type", "Only enable events on applying cpu with this type for hybrid"
                        + " platform (e.g. core or atom); jperf knows no hybrid platform")
                .attachedValueOrDefault('\0', "iostat", "default", "measure I/O performance metrics provided by"
                        + " arch/platform (where perf has none: its answer)", "default")
                .flag('\0', "table", "display details about each run (only with -r option)")
                .flag('B', "big-num", "print large numbers with thousands' separators (in the C locale, as jperf"
                        + " prints every number: none)");
    }

    @Override
    public void set(String name, OptionValue v) {
        switch (name) {
            case "event" -> events.add(v.text());
            case "all-cpus" -> allCpus = v.on();
            case "cpu" -> cpus = v.text();
            case "pid" -> pids = v.text();
            case "tid" -> tids = v.text();
            case "bpf-prog" -> bpfIds = v.text();
            case "interval-print" -> intervalMs = v.integer();
            case "interval-count" -> intervalCount = v.integer();
            case "interval-clear" -> intervalClear = v.on();
            case "scale" -> scale = v.on();
            case "sync" -> sync = v.on();
            case "repeat" -> repeat = (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v.integer()));
            case "field-separator" -> separator = v.text();
            case "json-output" -> json = v.on();
            case "output" -> output = Path.of(v.text());
            case "timeout" -> timeoutMs = v.integer();
            case "bpf-counters" -> bpfCounters = v.on();
            case "bpf-attr-map" -> bpfAttrMap = Path.of(v.text());
            case "null" -> nullRun = v.on();
            case "quiet" -> quiet = v.on();
            case "delay" -> delayMs = (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v.integer()));
            case "pre" -> pre = v.text();
            case "post" -> post = v.text();
            case "append" -> append = v.on();
            case "log-fd" -> logFd = v.integer();
            case "summary" -> summary = v.on();
            case "no-csv-summary" -> csvSummary = !v.on();
            case "big-num" -> bigNumAsked = v.on();
            // perf's OPT_INCR: -dd is two, --no-detailed none
            case "detailed" -> detailed = v.on() ? detailed + 1 : 0;
            case "topdown" -> topdown = v.on();
            case "all-user" -> allUser = v.on();
            case "all-kernel" -> allKernel = v.on();
            case "no-inherit" -> noInherit = v.on();
            case "table" -> table = v.on();
            case "group" -> group = v.on();
            case "cputype" -> cputype = v.text();
            case "iostat" -> iostat = v.text();
            case "td-level" -> tdLevel = v.integer();
            case "smi-cost" -> smiCost = v.on();
            // perf's OPT_SET_UINT on aggr_mode: the last one given wins; negated it sets 0, AGGR_NONE
            case "no-aggr" -> aggr = Aggr.NONE;
            case "per-thread" -> aggr = v.on() ? Aggr.THREAD : Aggr.NONE;
            case "per-core" -> aggr = v.on() ? Aggr.CORE : Aggr.NONE;
            case "per-die" -> aggr = v.on() ? Aggr.DIE : Aggr.NONE;
            case "per-socket" -> aggr = v.on() ? Aggr.SOCKET : Aggr.NONE;
            case "per-node" -> aggr = v.on() ? Aggr.NODE : Aggr.NONE;
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public void arguments(List<String> positional, List<String> all) {
        command = positional;
    }

    @Override
    public int call() throws Exception {
        if (intervalCount > 0 && intervalMs == 0) {
            // perf's words and exit code (-EINVAL)
            System.err.println("interval-count option should be used together with interval-print.");
            return 234;
        }
        // perf's option callbacks: answered at parse time with its usage exit code (129)
        String platform = platformAnswer();
        if (platform != null) {
            System.err.println(platform);
            return 129;
        }
        if (allUser && allKernel) {
            // perf's parse-options: the two are PARSE_OPT_EXCLUSIVE (exit 129)
            throw new UsageException("option `all-kernel' cannot be used with all-user");
        }
        // perf's checks, in its order, with its words and exit code (-EINVAL)
        if (bigNumAsked && separator != null) {
            System.err.println("-B option not supported with -x");
            return 234;
        }
        if (output != null && logFd != 0) {
            System.err.println("cannot use both --output and --log-fd");
            return 234;
        }
        if (table && repeat <= 1) {
            System.err.println("--table is only supported with -r");
            return 234;
        }
        if (logFd < 0 || logFd > Integer.MAX_VALUE) {
            System.err.println("argument to --log-fd must be a > 0");
            return 234;
        }
        String unmeasurable = unmeasurable();
        if (unmeasurable != null) {
            System.err.println(unmeasurable);
            return 234;
        }
        String badFd = logFd > 0 && output == null && !quiet ? StatSession.logFdError((int) logFd) : null;
        if (badFd != null) {
            System.err.println("Failed opening logfd: " + badFd);
            return 234;
        }
        if (intervalClear && !(output != null ? terminalDevice(output) : Terminal.isTerminal(logFd > 0 ? (int) logFd : 2))) {
            // perf's words, usage lines and exit code: the counts' stream must be a terminal
            System.err.println("--interval-clear does not work with output");
            options().usage(System.err, "output", "log-fd", "interval-clear");
            return 255;
        }
        if (aggr != Aggr.GLOBAL && aggr != Aggr.THREAD && !allCpus && cpus == null) {
            System.err.println("both cgroup and no-aggregation modes only available in system-wide mode");
            return 234;
        }
        if (aggr == Aggr.THREAD && pids == null && tids == null && (cpus != null || (!allCpus && !command.isEmpty()))) {
            System.err.println("The --per-thread option is only available when monitoring via -p -t -a options or only"
                    + " --per-thread.");
            return 234;
        }
        StatOptions o;
        try {
            // an unknown event is a bad command line (perf: "event syntax error", exit 129)
            StatSession.parseEvents(events);
            checkIds("-b", bpfIds);
            checkIds("-p", pids);
            checkIds("-t", tids);
            o = new StatOptions(events, allCpus, cpus, pids, tids, bpfIds, command, intervalMs, intervalCount, repeat, separator, json,
                    output, timeoutMs, bpfCounters, bpfAttrMap, nullRun, quiet, aggr, delayMs, pre, post, append, (int) logFd, summary,
                    csvSummary, detailed, allUser, allKernel, noInherit, table, group, intervalClear, scale, sync);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        return new StatSession(o, System.err).runWithSignals();
    }

    /**
     * --cputype and --iostat as perf 6.1 answers them where the machine has no hybrid CPU PMUs
     * (cpu_core, cpu_atom) or no Intel IIO uncore PMUs; where it has them jperf cannot use them yet.
     */
    private String platformAnswer() {
        Path devices = Path.of("/sys/bus/event_source/devices");
        if (cputype != null) {
            if (!Files.exists(devices.resolve("cpu_core")) && !Files.exists(devices.resolve("cpu_atom"))) {
                return "--cputype " + cputype + " is not supported!";
            }
            return "--cputype: jperf does not count on hybrid CPU types yet";
        }
        if (iostat != null) {
            if (!Files.exists(devices.resolve("uncore_iio_0"))) {
                return "Unsupported uncore pmu configuration";
            }
            return "--iostat: jperf does not read the IIO uncore PMUs yet";
        }
        return null;
    }

    /**
     * --smi-cost and --topdown as perf 6.1 answers them: what this machine lacks, in perf's words
     * and order; where the machine has what perf needs, jperf cannot measure it yet and says so.
     */
    private String unmeasurable() {
        Path cpuPmu = Path.of("/sys/bus/event_source/devices/cpu/events");
        if (smiCost) {
            if (!Files.exists(Path.of("/sys/devices/cpu/freeze_on_smi"))) {
                return "freeze_on_smi is not supported.";
            }
            Path msr = Path.of("/sys/bus/event_source/devices/msr/events");
            if (!Files.exists(msr.resolve("aperf")) || !Files.exists(msr.resolve("smi"))) {
                return "To measure SMI cost, it needs msr/aperf/, msr/smi/ and cpu/cycles/ support";
            }
            return "--smi-cost: jperf does not count msr/aperf/ and msr/smi/ yet";
        }
        if (topdown) {
            // the second level where the PMU has its events (topdown_l2: topdown-heavy-ops)
            int max = Files.exists(cpuPmu.resolve("topdown-heavy-ops")) ? 2 : 1;
            if (tdLevel > max) {
                return "Invalid top-down metrics level. The max level is " + max + ".";
            }
            if (!allCpus && cpus == null) {
                return "top down event configuration requires system-wide mode (-a)";
            }
            if (!Files.exists(cpuPmu.resolve("topdown-total-slots")) && !Files.exists(cpuPmu.resolve("slots"))) {
                return "System does not support topdown";
            }
            return "--topdown: jperf does not compute the top-down metrics yet";
        }
        return null;
    }

    /** Whether an {@code -o} path names a terminal (perf asks isatty of the file it opened). */
    private static boolean terminalDevice(Path p) {
        try {
            String real = p.toRealPath().toString();
            return real.startsWith("/dev/pts/") || real.startsWith("/dev/tty") || real.equals("/dev/console");
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static void checkIds(String option, String list) {
        if (list != null) {
            StatSession.ids(option, list);
        }
    }
}
