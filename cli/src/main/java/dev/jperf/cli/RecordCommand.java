package dev.jperf.cli;

import dev.jperf.cli.options.OptionValue;
import dev.jperf.cli.options.Options;
import dev.jperf.cli.options.UsageException;
import dev.jperf.format.feature.ClockIds;
import dev.jperf.loader.AttachedObjects;
import dev.jperf.nativeshim.Clocks;
import dev.jperf.loader.BpfSource;
import dev.jperf.recorder.BranchFilter;
import dev.jperf.recorder.CallGraph;
import dev.jperf.recorder.EventSpec;
import dev.jperf.recorder.Privileges;
import dev.jperf.recorder.RecordOptions;
import dev.jperf.recorder.Recorder;
import dev.jperf.recorder.UserRegs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** {@code jperf record}: perf record's options, same spellings. */
final class RecordCommand implements Subcommand {
    /** -a -C -p -t -e -F -c -m -i, shared with top */
    private final TargetOptions target = new TargetOptions();
    /** the options call() does not look at again go straight to the recorder's builder */
    private final RecordOptions.Builder builder = RecordOptions.builder();
    private boolean callGraph;
    private CallGraph callGraphMode;
    private long userRegs;
    private long intrRegs;
    private long branchStack;
    private boolean useClockid;
    private Path output;
    private Integer compressionLevel;
    private boolean quiet;
    private boolean allUser;
    private boolean allKernel;
    private boolean dryRun;
    private boolean strictFreq;
    private final List<Path> bpfObjects = new ArrayList<>();
    private List<String> command = List.of();
    private List<String> args = List.of();

    /** {@code --user-regs} without a value (no argument vector holds a NUL). */
    private static final String ALL_REGISTERS = "\0";

    @Override
    public String name() {
        return "record";
    }

    @Override
    public String summary() {
        return "Run a command and record its profile into perf.data";
    }

    @Override
    public Options options() {
        return TargetOptions.declare(new Options("jperf record [<options>] [<command>]",
                "jperf record [<options>] -- <command> [<options>]").stopAtNonOption(), "record")
                .flag('g', null, "enables call-graph recording")
                .value('\0', "call-graph", "record_mode[,record_size]", "setup and enables call-graph (stack"
                        + " chain/backtrace): record_mode fp|dwarf|lbr; record_size: if record_mode is 'dwarf', max size"
                        + " of stack recording (<bytes>), default 8192 (bytes). Default: fp")
                .attachedValueOrDefault('\0', "user-regs", "any register", "sample selected machine registers in"
                        + " user space, use '--user-regs=?' to list register names", ALL_REGISTERS)
                .value('o', "output", "file", "output file name (default perf.data; '-', or stdout a pipe and no -o:"
                        + " pipe mode on stdout)")
                .attachedValueOrDefault('z', "compression-level", "n", "compress records with zstd, as perf -z"
                        + " (PERF_RECORD_COMPRESSED); n as perf takes it (default 1, 0 means 1, above 22 means 22), but"
                        + " jperf's pure-Java encoder compresses at zstd level 3, which the header records", "1")
                .flag('q', "quiet", "don't print any message")
                .flag('B', "no-buildid", "do not collect buildids in perf.data")
                .flag('N', "no-buildid-cache", "do not update the buildid cache")
                .flag('\0', "all-user", "Configure all used events to run in user space.")
                .flag('\0', "all-kernel", "Configure all used events to run in kernel space.")
                .flag('\0', "switch-events", "Record context switch events")
                .flag('\0', "namespaces", "Record namespaces events")
                .flag('n', "no-samples", "don't sample")
                .flag('\0', "timestamp-filename", "append timestamp to output filename")
                .flag('\0', "off-cpu", "Enable off-cpu analysis")
                .value('D', "delay", "n", "ms to wait before starting measurement after program start (-1: start with"
                        + " events disabled)")
                .flag('T', "timestamp", "Record the sample timestamps (always: jperf's and perf's default)")
                .flag('d', "data", "Record the sample addresses")
                .flag('P', "period", "Record the sample period")
                .attachedValueOrDefault('I', "intr-regs", "any register", "sample selected machine registers on"
                        + " interrupt, use '-I?' to list register names", ALL_REGISTERS)
                .flag('\0', "code-page-size", "Record the sampled code address (ip) page size")
                .flag('\0', "data-page-size", "Record the sampled data address data page size")
                .flag('\0', "kernel-callchains", "collect kernel callchains")
                .flag('\0', "user-callchains", "collect user callchains")
                .value('k', "clockid", "clockid", "clockid to use for events, see clock_gettime()")
                .flag('\0', "group", "put the counters into a counter group")
                .flag('s', "stat", "per thread counts")
                .value('\0', "synth", "no|all|task|mmap|cgroup", "Fine-tune event synthesis: default=all")
                .flag('b', "branch-any", "sample any taken branches")
                .value('j', "branch-filter", "branch filter mask", "branch stack filter modes")
                .flag('\0', "phys-data", "Record the sample physical addresses")
                .flag('W', "weight", "sample by weight (on special events only)")
                .flag('R', "raw-samples", "collect raw sample records from all opened counters")
                .flag('\0', "running-time", "Record running/enabled time of read (:S) events")
                .flag('\0', "sample-cpu", "Record the sample cpu (always: jperf samples the cpu)")
                .flag('\0', "sample-identifier", "Record the sample identifier (always: jperf samples"
                        + " IDENTIFIER)")
                .flag('\0', "no-bpf-event", "do not record bpf events")
                .flag('\0', "dry-run", "Parse options then exit")
                .flag('\0', "strict-freq", "Fail if the specified frequency can't be used")
                .value('\0', "max-size", "size", "Limit the maximum size of the output file")
                .flag('\0', "no-buffering", "collect data without buffering")
                .value('\0', "duration", "seconds", "stop after this many seconds (jperf)")
                .value('\0', "bpf-object", "obj[,obj]", "load these BPF objects with jperf's loader and attach their"
                        + " programs for the recording (perf bpf record --object)")
                .value('\0', "buildid-dir", "dir", "the build-id cache (default: $PERF_BUILDID_DIR, else ~/.debug)");
    }

    @Override
    public void buildIdDir(Path dir) {
        builder.buildIdDir(dir);
    }

    @Override
    public void set(String name, OptionValue v) {
        if (name.equals("event") && (v.text().endsWith(".c") || v.text().endsWith(".o"))) {
            // perf's -e prog.c / -e prog.o: a BPF program to load for the recording, not an event
            bpfObjects.add(Path.of(v.text()));
            return;
        }
        if (target.set(name, v)) {
            return;
        }
        switch (name) {
            case "buildid-dir" -> builder.buildIdDir(Path.of(v.text()));
            case "g" -> callGraph = v.on();
            case "call-graph" -> {
                // parsed as it comes, as perf's option callback: a bad value stops the parse there
                try {
                    callGraphMode = CallGraph.parse(v.text());
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
            }
            case "user-regs" -> {
                if (userRegs != 0) {
                    // perf's __parse_regs: "cannot set it twice"
                    throw new UsageException("option `user-regs' cannot be given twice");
                }
                try {
                    userRegs = UserRegs.parse(v.text().equals(ALL_REGISTERS) ? null : v.text());
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
            }
            case "output" -> output = Path.of(v.text());
            case "compression-level" -> compressionLevel = TargetOptions.toInt("-z", Options.toLong("-z", v.text()));
            case "quiet" -> quiet = v.on();
            case "duration" -> builder.duration(Duration.ofMillis((long) (v.decimal() * 1000)));
            case "no-buildid" -> builder.noBuildId(v.on());
            case "no-buildid-cache" -> builder.noBuildIdCache(v.on());
            case "all-user" -> allUser = v.on();
            case "all-kernel" -> allKernel = v.on();
            case "switch-events" -> builder.switchEvents(v.on());
            case "namespaces" -> builder.namespaces(v.on());
            case "no-samples" -> builder.noSamples(v.on());
            case "timestamp-filename" -> builder.timestampFilename(v.on());
            case "off-cpu" -> builder.offCpu(v.on());
            case "delay" -> builder.delayMs(TargetOptions.toInt("-D", v.integer()));
            case "timestamp" -> {
                // perf's sample_time is on by default and jperf always samples the time: -T asks for
                // what is already there (perf's attrs are the same with and without it)
            }
            case "data" -> builder.data(v.on());
            case "period" -> builder.samplePeriod(v.on());
            case "intr-regs" -> {
                if (intrRegs != 0) {
                    // perf's __parse_regs: "cannot set it twice"
                    throw new UsageException("option `intr-regs' cannot be given twice");
                }
                try {
                    intrRegs = UserRegs.parse(v.text().equals(ALL_REGISTERS) ? null : v.text(), "--intr-regs", "-I?");
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
                builder.intrRegs(intrRegs);
            }
            case "clockid" -> {
                if (useClockid) {
                    // perf's parse_clockid: "no setting it twice"
                    throw new UsageException("option `clockid' cannot be given twice");
                }
                int id;
                try {
                    id = ClockIds.parse(v.text());
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
                useClockid = true;
                if (Clocks.resolutionNs(id) < 0) {
                    // perf's get_clockid_res: said, the recording tried anyway (the kernel refuses the clock)
                    System.err.println("WARNING: Failed to determine specified clock resolution.");
                }
                builder.clockid(id);
            }
            case "group" -> builder.group(v.on());
            case "stat" -> builder.inheritStat(v.on());
            case "synth" -> {
                int synth = RecordOptions.parseSynth(v.text());
                if (synth < 0) {
                    throw new UsageException("Invalid synth option: " + v.text());
                }
                builder.synth(synth);
            }
            case "code-page-size" -> builder.codePageSize(v.on());
            case "data-page-size" -> builder.dataPageSize(v.on());
            case "kernel-callchains" -> builder.kernelCallchains(v.on());
            case "user-callchains" -> builder.userCallchains(v.on());
            case "branch-any", "branch-filter" -> {
                if (!v.on()) {
                    return; // perf's parse_branch_stack: unset does nothing
                }
                if (branchStack != 0) {
                    // perf's parse_branch_stack: a mode set once is not set again
                    throw new UsageException("Can't use --branch-any (-b) with --branch-filter (-j).");
                }
                try {
                    branchStack = BranchFilter.parse(name.equals("branch-any") ? null : v.text());
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
                builder.branchStack(branchStack);
            }
            case "phys-data" -> builder.physData(v.on());
            case "weight" -> builder.weight(v.on());
            case "raw-samples" -> builder.rawSamples(v.on());
            case "running-time" -> builder.runningTime(v.on());
            case "sample-cpu", "sample-identifier" -> {
                // jperf's events always sample CPU and IDENTIFIER: these ask for what is already there
            }
            case "no-bpf-event" -> builder.noBpfEvent(v.on());
            case "dry-run" -> dryRun = v.on();
            case "strict-freq" -> strictFreq = v.on();
            case "max-size" -> builder.maxSize(maxSize(v.text()));
            case "no-buffering" -> builder.noBuffering(v.on());
            case "bpf-object" -> {
                for (String f : v.text().split(",")) {
                    if (!f.isEmpty()) {
                        bpfObjects.add(Path.of(f));
                    }
                }
            }
            default -> throw new IllegalStateException("option not handled: " + name);
        }
    }

    @Override
    public void arguments(List<String> positional, List<String> all) {
        command = positional;
        args = all;
    }

    @Override
    public int call() throws Exception {
        if (allUser && allKernel) {
            // perf's parse-options: the two are PARSE_OPT_EXCLUSIVE (exit 129)
            throw new UsageException("option `all-kernel' cannot be used with all-user");
        }
        if (target.period == 0 && !dryRun) {
            // perf's record_opts__config_freq (after --dry-run's exit): above the kernel's limit (which the kernel itself
            // lowers when sampling takes too long) the frequency is throttled to it, or refused
            long max = Privileges.maxSampleRate();
            int asked = target.freq > 0 ? target.freq : RecordOptions.DEFAULT_FREQ;
            if (max > 0 && asked > max) {
                if (strictFreq) {
                    if (!quiet) {
                        System.err.println("error: Maximum frequency rate (" + max + " Hz) exceeded.\n"
                                + "       Please use -F freq option with a lower value or consider\n"
                                + "       tweaking /proc/sys/kernel/perf_event_max_sample_rate.");
                    }
                    return STRICT_FREQ_EXIT;
                }
                if (!quiet) {
                    System.err.println("warning: Maximum frequency rate (" + max + " Hz) exceeded, throttling from "
                            + asked + " Hz to " + max + " Hz.\n"
                            + "         The limit can be raised via /proc/sys/kernel/perf_event_max_sample_rate.\n"
                            + "         The kernel will lower it when perf's interrupts take too long.\n"
                            + "         Use --strict-freq to disable this throttling, refusing to record.");
                }
                // a -F stays the user's (perf's user_freq: every event takes it), the default stays a default
                if (target.freq > 0) {
                    target.freq = (int) max;
                } else {
                    builder.defaultFreq((int) max);
                }
            }
        }
        List<String> cmdline = new ArrayList<>(List.of("jperf", name()));
        cmdline.addAll(args);
        RecordOptions o = target.fill(builder).command(command)
                // perf's -g keeps a mode --call-graph chose, in either order; alone it is fp
                .callGraph(callGraphMode != null ? callGraphMode : callGraph ? CallGraph.FP : CallGraph.NONE)
                .output(output != null ? output : stdoutIsPipe() ? Path.of("-") : Path.of("perf.data"))
                .quiet(quiet).cmdline(cmdline)
                // perf's record__parse_comp_level: 0 is the default level, the maximum caps
                .compressionLevel(compressionLevel == null ? 0 : compressionLevel <= 0 ? 1
                        : Math.min(compressionLevel, RecordOptions.MAX_COMPRESSION_LEVEL))
                .allUser(allUser).allKernel(allKernel).userRegs(userRegs).build();
        if (dryRun) {
            // perf's --dry-run: the options and events parsed, nothing opened or written
            for (String e : target.events) {
                for (String one : e.split(",")) {
                    if (!one.isBlank()) {
                        EventSpec.parse(one);
                    }
                }
            }
            return 0;
        }
        // loaded before the recording starts: the recorder synthesizes every loaded program's
        // metadata at start, as perf does; they unload when the recording ends (or jperf exits)
        Path built = null; // record's start links no invokedynamic: a loop, not a stream
        for (Path f : bpfObjects) {
            if (built == null && f.toString().endsWith(".c")) {
                built = Files.createTempDirectory("jperf-bpf");
            }
        }
        try {
            List<Path> objects = new ArrayList<>();
            for (Path f : bpfObjects) {
                objects.add(f.toString().endsWith(".c") ? BpfSource.compile(f, built) : f);
            }
            try (AttachedObjects bpf = objects.isEmpty() ? null : AttachedObjects.loadAndAttach(objects, System.err)) {
                if (bpf != null && !quiet) {
                    System.err.println("jperf record: " + bpfObjects.size() + " BPF object(s) loaded, "
                            + bpf.targets().size() + " attachment(s)");
                }
                Recorder.Result r = new Recorder(o, System.err).recordWithSignals();
                // as perf record: its workload's exit status (128 + the signal that ended it)
                return r.writeFailure() != null ? 1 : Math.max(0, r.workloadExit());
            }
        } finally {
            // the compiled objects go whether clang, the load or the recording failed
            if (built != null) {
                BpfSource.delete(built);
            }
        }
    }

    /**
     * perf's parse_output_max_size (parse_tag_value): digits and one of B, K, M, G; anything else,
     * or 0, is a usage error.
     */
    private static long maxSize(String text) {
        int n = text.length();
        long unit = n == 0 ? 0 : switch (text.charAt(n - 1)) {
            case 'B' -> 1;
            case 'K' -> 1L << 10;
            case 'M' -> 1L << 20;
            case 'G' -> 1L << 30;
            default -> 0;
        };
        long v = 0;
        for (int i = 0; i < n - 1 && unit != 0; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9' || v > Long.MAX_VALUE / 100) {
                unit = 0;
            } else {
                v = v * 10 + (c - '0');
            }
        }
        if (unit == 0 || n < 2 || v == 0) {
            throw new UsageException("option `max-size' expects a size: a number and B, K, M or G");
        }
        return v * unit;
    }

    /** perf record's exit when record_opts__config fails: -EINVAL as an exit status. */
    private static final int STRICT_FREQ_EXIT = 234;

    /** perf writes pipe mode when no -o is given and stdout is a pipe (perf_data__open's check_pipe). */
    private static boolean stdoutIsPipe() {
        return Input.isPipe(1);
    }
}
