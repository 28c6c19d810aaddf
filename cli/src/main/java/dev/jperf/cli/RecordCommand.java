package dev.jperf.cli;

import dev.jperf.recorder.RecordOptions;
import dev.jperf.recorder.Recorder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code jperf record}: perf record's options, same spellings. */
@Command(name = "record", description = "Run a command and record its profile into perf.data", sortOptions = false)
final class RecordCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-a", "--all-cpus"}, description = "system-wide collection from all CPUs")
    boolean allCpus;

    @Option(names = {"-C", "--cpu"}, paramLabel = "<cpu>", description = "list of CPUs to monitor, e.g. 0-1,3")
    String cpus;

    @Option(names = {"-p", "--pid"}, paramLabel = "<pid>", split = ",", description = "record events on existing process ids")
    List<Integer> pids = new ArrayList<>();

    @Option(names = {"-t", "--tid"}, paramLabel = "<tid>", split = ",", description = "record events on existing thread ids")
    List<Integer> tids = new ArrayList<>();

    @Option(names = {"-e", "--event"}, paramLabel = "<event>", description = "event selector, e.g. cpu-clock, task-clock:u, cycles")
    List<String> events = new ArrayList<>();

    @Option(names = {"-F", "--freq"}, paramLabel = "<freq>", description = "profile at this frequency (default 4000)")
    int freq;

    @Option(names = {"-c", "--count"}, paramLabel = "<n>", description = "event period to sample")
    long period;

    @Option(names = "-g", description = "enables call-graph (stack chain/backtrace) recording (frame pointers)")
    boolean callGraph;

    @Option(names = "--call-graph", paramLabel = "<mode>", description = "call-graph recording mode: fp")
    String callGraphMode;

    @Option(names = {"-m", "--mmap-pages"}, paramLabel = "<pages>", description = "number of mmap data pages (power of two)")
    int mmapPages = RecordOptions.DEFAULT_MMAP_PAGES;

    @Option(names = {"-o", "--output"}, paramLabel = "<file>",
            description = "output file name (default perf.data; '-', or stdout a pipe and no -o: pipe mode on stdout)")
    Path output;

    @Option(names = {"-z", "--compression-level"}, paramLabel = "<n>", arity = "0..1", fallbackValue = "1",
            description = "compress records with zstd, as perf -z (PERF_RECORD_COMPRESSED); n as perf takes it "
                    + "(default 1, 0 means 1, above 22 means 22), but jperf's pure-Java encoder compresses at zstd "
                    + "level 3, which the header records")
    Integer compressionLevel;

    @Option(names = {"-q", "--quiet"}, description = "don't print any message")
    boolean quiet;

    @Option(names = "--duration", paramLabel = "<seconds>", description = "stop after this many seconds (jperf)")
    Double duration;

    @Parameters(paramLabel = "command", arity = "0..*", description = "workload to run (after --)")
    List<String> command = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        if (callGraphMode != null) {
            if (!callGraphMode.equals("fp")) {
                throw new IllegalArgumentException("--call-graph " + callGraphMode + " is not supported: use fp");
            }
            callGraph = true;
        }
        List<Integer> cpuList = cpus == null ? List.of() : parseCpus(cpus);
        List<String> cmdline = new ArrayList<>(List.of("jperf"));
        cmdline.addAll(spec.commandLine().getParseResult().originalArgs());
        RecordOptions o = new RecordOptions(allCpus, cpuList, pids, tids, command, events, freq, period, callGraph,
                mmapPages, output != null ? output : stdoutIsPipe() ? Path.of("-") : Path.of("perf.data"),
                duration == null ? null : Duration.ofMillis((long) (duration * 1000)), quiet, cmdline,
                // perf's record__parse_comp_level: 0 is the default level, the maximum caps
                compressionLevel == null ? 0 : compressionLevel <= 0 ? 1
                        : Math.min(compressionLevel, RecordOptions.MAX_COMPRESSION_LEVEL));
        Recorder.Result r = new Recorder(o, System.err).recordWithSignals();
        return r.writeFailure() != null ? 1 : 0;
    }

    /** perf writes pipe mode when no -o is given and stdout is a pipe (perf_data__open's check_pipe). */
    private static boolean stdoutIsPipe() {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/fd/1")).toString().startsWith("pipe:");
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    private static List<Integer> parseCpus(String list) {
        List<Integer> out = new ArrayList<>();
        for (String part : list.split(",")) {
            int dash = part.indexOf('-');
            try {
                int lo = Integer.parseInt(dash < 0 ? part.strip() : part.substring(0, dash).strip());
                int hi = dash < 0 ? lo : Integer.parseInt(part.substring(dash + 1).strip());
                for (int c = lo; c <= hi; c++) {
                    out.add(c);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad CPU list '" + list + "'");
            }
        }
        return out;
    }
}
