package dev.jperf.recorder;

import dev.jperf.nativeshim.RingBuffer;
import static dev.jperf.format.header.PerfEventAttr.PERF_SAMPLE_IP;
import static dev.jperf.format.header.PerfEventAttr.PERF_SAMPLE_TID;
import static dev.jperf.format.header.PerfEventAttr.PERF_SAMPLE_TIME;

import dev.jperf.format.BuildIdDir;
import dev.jperf.format.feature.BuildIds;
import dev.jperf.format.feature.ClockData;
import dev.jperf.format.feature.ClockResolution;
import dev.jperf.format.feature.Feature;
import dev.jperf.format.feature.GroupDescs;
import dev.jperf.format.record.SampleLayout;
import dev.jperf.format.writer.PerfDataOutput;
import dev.jperf.format.writer.RecordCompressor;
import dev.jperf.nativeshim.Clocks;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.Mman;
import dev.jperf.nativeshim.NativeException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * {@code jperf record}: opens the events, writes the start-up records perf writes, then copies the
 * rings into the file until the workload ends, the duration passes, or SIGINT/SIGTERM arrive.
 * The file is complete at every moment after start: the header and feature table are refreshed at
 * least once a second, so a {@code kill -9} loses at most the last second. The parts: {@link Targets},
 * {@link RecordOutput}, {@link StartupRecords}, {@link DrainLoop} (with {@link FeatureUpdates}'
 * checkpoints and {@link BpfImages}), the end records here, {@link RecordSummary}.
 */
public final class Recorder implements StopSignals.Stoppable {
    static final int PAGE_SIZE = Mman.pageSize();
    /** Highest fd the table is grown to before recording: room for many programs pinned at once. */
    private static final int PINNED_FD_ROOM = 1023;

    /** What a recording produced. */
    public record Result(String output, long bytes, long samples, long lost, int bpfCaptured, int bpfMissed,
            int workloadExit, String writeFailure) {}

    private final RecordOptions options;
    private final PrintStream err;
    private final BpfCapture capture = new BpfCapture();
    private volatile boolean stopRequested;
    /** Where a pipe-mode stream goes instead of stdout (a reader in this process: top), or null. */
    private WritableByteChannel pipeTo;
    /** {@code --max-size} reached: the session stops. */
    private boolean sizeLimitReached;

    public Recorder(RecordOptions options, PrintStream err) {
        this.options = options;
        this.err = err;
    }

    /**
     * The pipe-mode stream ({@code -o -}) written to {@code channel} instead of stdout: a reader in
     * this process (jperf top) aggregates it as it comes.
     */
    public Recorder pipeTo(WritableByteChannel channel) {
        this.pipeTo = channel;
        return this;
    }

    /** Asks the recording to stop (signal handlers, tests). */
    @Override
    public void requestStop() {
        stopRequested = true;
    }

    /** Records until done; installs SIGINT/SIGTERM handlers that stop it cleanly. */
    public Result recordWithSignals() throws IOException, InterruptedException {
        StopSignals.install(this);
        return record();
    }

    public Result record() throws IOException, InterruptedException {
        List<Integer> cpus = options.cpus().isEmpty() ? Cpus.online() : options.cpus();
        Workload workload = options.command().isEmpty() ? null : Workload.startStopped(options.command(), options.pipeOutput());
        try {
            return record(cpus, workload);
        } finally {
            if (workload != null && workload.alive()) {
                workload.terminate();
                if (workload.waitFor(2000) < 0) {
                    workload.kill();
                }
            }
        }
    }

    private Result record(List<Integer> cpus, Workload workload) throws IOException, InterruptedException {
        List<Integer> threads = Targets.threads(options, workload);
        boolean enableOnExec = workload != null && !options.systemWide();
        // --no-bpf-event: no side-band, nothing captured, and nothing to warn about
        String noCapture = options.noBpfEvent() ? null : capture.unavailable();
        boolean captureBpf = noCapture == null && !options.noBpfEvent();
        PerfEvents events;
        try {
            events = PerfEvents.open(options, cpus, threads, enableOnExec, captureBpf);
        } catch (IllegalArgumentException e) {
            throw new RecordException(e.getMessage(), e);
        }
        OffCpu offCpu = null;
        if (options.offCpu()) {
            try {
                // perf's filters: -C's CPUs, -p/-t's threads, else the workload's process (none with -a)
                List<Integer> tasks = options.pids().isEmpty() && options.tids().isEmpty() ? List.of() : threads;
                offCpu = OffCpu.start(options.cpus(), tasks,
                        workload != null && !options.systemWide() ? workload.pid() : 0);
            } catch (RuntimeException e) {
                events.close();
                throw e;
            }
        }
        if (!options.quiet()) {
            if (options.callGraph().mode() == CallGraph.Mode.DWARF && options.userRegs() != 0) {
                // perf's __evsel__config_callchain warns for each event it configures: the sampling
                // events, and the dummy perf adds system-wide or with -D (jperf's workload dummy is its own)
                int evsels = events.evsels().size() - (options.systemWide() || options.delayMs() != 0 ? 0 : 1);
                for (int i = 0; i < evsels; i++) {
                    err.println("WARNING: The use of --call-graph=dwarf may require all the user registers, specifying"
                            + " a subset with --user-regs may render DWARF unwinding unreliable, so the minimal"
                            + " registers set (IP, SP) is explicitly forced.");
                }
            }
            for (int i = 0; i < events.lbrFallbacks(); i++) {
                // perf's __evsel__config_callchain, word for word
                err.println("LBR callstack option is only available to get user callchain information."
                        + " Falling back to framepointers.");
            }
            String warning = noCapture != null ? noCapture(noCapture) : !captureBpf || events.sideBandFailure() == null ? null
                    : "BPF programs loaded while recording are not captured: the kernel refused the side-band event ("
                            + events.sideBandFailure() + ")";
            if (warning != null) {
                err.println("jperf record: warning: " + warning);
            }
        }
        try {
            return record(events, offCpu, cpus, threads, workload, enableOnExec, captureBpf);
        } finally {
            if (offCpu != null) {
                offCpu.close();
            }
            events.close();
        }
    }

    /** The warning that BPF metadata cannot be captured: what is missing, and the kernel's answer. */
    private static String noCapture(String kernelAnswer) {
        String missing = Privileges.capable(Privileges.CAP_SYS_ADMIN) ? "" : ", which needs CAP_SYS_ADMIN";
        return "no BPF metadata in this recording (bpf_prog_info, BTF, program loads): the kernel does not let jperf"
                + " read BPF programs by id" + missing + " (" + kernelAnswer + ")";
    }

    private Result record(PerfEvents events, OffCpu offCpu, List<Integer> cpus, List<Integer> threads,
            Workload workload, boolean enableOnExec, boolean captureBpf) throws IOException, InterruptedException {
        PerfDataOutput writer = pipeTo != null ? RecordOutput.pipe(pipeTo, events) : RecordOutput.open(options, events);
        HeaderFeatures.setStatic(writer, events.evsels(), options.cmdline());
        if (options.useClockid()) {
            clockFeatures(writer);
        }
        if (events.groupSize() > 1) {
            // perf's write_group_desc: an unnamed group, led by the first event
            writer.setFeature(Feature.GROUP_DESC.bit(),
                    new GroupDescs(List.of(new GroupDescs.Group(GroupDescs.ANON_GROUP, 0, events.groupSize()))).encode());
        }
        int trailer = SampleLayout.of(events.trackingType()).sampleIdSize();
        SampleLayout samples = SampleLayout.of(events.sampleType());
        DsoHits hits = new DsoHits(samples.offset(PERF_SAMPLE_IP), samples.offset(PERF_SAMPLE_TID));
        // perf's comp_mmap_len: the ring with its header page; its reader decompresses that much at a time
        RecordCompressor compressor = options.compressionLevel() > 0
                ? new RecordCompressor((options.mmapPages() + 1) * PAGE_SIZE) : null;
        RecordCopier copier = new RecordCopier(writer, compressor, capture, trailer,
                samples.offset(PERF_SAMPLE_TIME), hits);
        FeatureUpdates features = new FeatureUpdates(writer, copier, compressor, capture);
        // what is known at start: all a pipe gets of these sections (perf 6.1 does the same)
        features.update();
        BpfImages images = new BpfImages(capture);
        DrainLoop drain = new DrainLoop(events.samplingRings().toArray(new RingBuffer[0]), copier, features, capture,
                images, !options.systemWide() && options.command().isEmpty());
        List<SideBand> sideBands = new ArrayList<>();
        for (RingBuffer r : events.sideBandRings()) {
            sideBands.add(new SideBand(r, capture));
        }
        int workloadExit = -1;
        long lostSamples = 0;
        try {
            growFdTable();
            capture.startFetcher();
            for (SideBand sb : sideBands) {
                sb.start();
            }
            StartupRecords.write(options, events, cpus, threads, copier, capture, images, trailer, captureBpf,
                    workload == null ? 0 : workload.pid());
            int delay = options.delayMs();
            if (!enableOnExec && delay == 0) {
                events.enableSampling();
            }
            if (delay != 0 && !options.quiet()) {
                err.println("Events disabled"); // perf's EVLIST_DISABLED_MSG
            }
            if (workload != null) {
                workload.go();
            }
            // -D: perf sleeps the delay after the workload starts, then enables (none with -1)
            long enableAt = delay > 0 ? System.nanoTime() + delay * 1_000_000L : Long.MAX_VALUE;
            long deadline = options.duration() == null ? Long.MAX_VALUE
                    : System.nanoTime() + options.duration().toNanos();
            // an anonymous class, not a lambda: the record path links no invokedynamic (see HeaderFeatures#setStatic)
            BooleanSupplier done = new BooleanSupplier() {
                private long enableAtNs = enableAt;

                @Override
                public boolean getAsBoolean() {
                    if (System.nanoTime() >= enableAtNs) {
                        // checked between drain steps: the rings keep being read through the delay
                        enableAtNs = Long.MAX_VALUE;
                        events.enableSampling();
                        if (!options.quiet()) {
                            err.println("Events enabled"); // perf's EVLIST_ENABLED_MSG
                        }
                    }
                    if (options.maxSize() > 0 && !sizeLimitReached && writer.written() > options.maxSize()) {
                        // perf's record__write: said once, then the session stops as on SIGINT
                        sizeLimitReached = true;
                        err.println("[ jperf record: perf size limit reached (" + (writer.written() >> 10)
                                + " KB), stopping session ]");
                    }
                    return stopRequested || sizeLimitReached || System.nanoTime() >= deadline
                            || (workload != null && !workload.alive()) || copier.failure() != null;
                }
            };
            drain.run(done);
        } finally {
            events.disableAll();
            for (SideBand sb : sideBands) {
                sb.stop();
            }
            if (workload != null && workload.alive() && (stopRequested || sizeLimitReached || copier.failure() != null
                    || options.duration() != null)) {
                workload.terminate();
            }
            if (workload != null) {
                workloadExit = workload.waitFor(2000);
            }
            lostSamples = finish(events, offCpu, drain, copier, writer, features, images.kallsyms(), hits);
        }
        for (SideBand sb : sideBands) {
            if (sb.crash() != null) {
                throw new RecordException("side-band reader failed: " + sb.crash(), sb.crash());
            }
        }
        long bytes = writer.written();
        String output = writer.name();
        String shown = output;
        if (options.timestampFilename()) {
            String suffix = timestamp();
            if (!options.pipeOutput()) {
                output = output + "." + suffix;
                Files.move(Path.of(writer.name()), Path.of(output), StandardCopyOption.REPLACE_EXISTING);
                shown = writer.name() + ".<timestamp>"; // perf's summary line names it so
            }
            if (!options.quiet()) {
                // perf says so in pipe mode too, where nothing is renamed
                err.println("[ jperf record: Dump " + writer.name() + "." + suffix + " ]");
            }
        }
        // the kernel counts a dropped sample in its next PERF_RECORD_LOST and in the fd's lost
        // count together; the fd counts also hold those no LOST record reported before the end
        Result r = new Result(output, bytes, copier.samples(), Math.max(copier.lost(), lostSamples),
                capture.captured(), capture.missed(),
                workloadExit, copier.failure() == null ? null : copier.failure().getMessage());
        if (!options.quiet()) {
            RecordSummary.print(err, r, shown, compressor, features.streamTooLarge());
        }
        return r;
    }

    /**
     * -k: perf's record__init_clock, the clock's resolution (0 where it has none) and the wall
     * clock (to the microsecond, gettimeofday's) read just before the recording clock.
     */
    private void clockFeatures(PerfDataOutput writer) {
        long res = Clocks.resolutionNs(options.clockid());
        long[] tod = Clocks.get(Clocks.CLOCK_REALTIME);
        long[] clock;
        try {
            clock = Clocks.get(options.clockid());
        } catch (NativeException e) {
            throw new RecordException("clock_gettime failed: " + e.getMessage(), e);
        }
        writer.setFeature(Feature.CLOCKID.bit(), new ClockResolution(Math.max(0, res)).encode());
        writer.setFeature(Feature.CLOCK_DATA.bit(), new ClockData(1, options.clockid(),
                tod[0] * 1_000_000_000L + tod[1] / 1000 * 1000, clock[0] * 1_000_000_000L + clock[1]).encode());
    }

    /** perf's fetch_current_timestamp: local time as YYYYmmddHHMMSS and two digits of centiseconds. */
    private static String timestamp() {
        java.time.LocalDateTime t = java.time.LocalDateTime.now();
        return String.format(java.util.Locale.ROOT, "%04d%02d%02d%02d%02d%02d%02d", t.getYear(), t.getMonthValue(),
                t.getDayOfMonth(), t.getHour(), t.getMinute(), t.getSecond(), t.getNano() / 10_000_000);
    }

    /** Pinned programs hold fds: make room for them before the race starts (see Fd.growTable). */
    private static void growFdTable() {
        try {
            Fd.growTable(PINNED_FD_ROOM);
        } catch (NativeException e) {
            // RLIMIT_NOFILE below it: the table grows on demand, slower
        }
    }

    /**
     * Drains everything left (side-band thread stopped), fetches the last pinned programs, closes
     * the file; returns the sum of the LOST_SAMPLES counts written.
     */
    private long finish(PerfEvents events, OffCpu offCpu, DrainLoop drain, RecordCopier copier,
            PerfDataOutput writer, FeatureUpdates features, KernelMaps kallsyms, DsoHits hits)
            throws IOException, InterruptedException {
        drain.pass();
        if (offCpu != null) {
            // after the last ring record and before the lost counts, as perf's off_cpu_write
            PerfEvents.Evsel e = events.offCpu();
            copier.appendOwn(offCpu.samples(OffCpu.sampleType(events.sampleType()), e.ids().get(0)));
        }
        long lostSamples = appendLostSamples(events, copier);
        copier.flushCompressor();
        capture.stopFetcher();
        // -B: no build-id is read and HEADER_BUILD_ID is left out, as perf clears the feature
        List<BuildIds.Entry> buildIds = kallsyms == null || options.noBuildId() ? List.of()
                : BuildIdCache.at(options.noBuildIdCache() ? null : BuildIdDir.resolve(options.buildIdDir()))
                        .entries(hits, kallsyms, Path.of("/sys/kernel/notes"));
        try {
            features.update();
            if (!options.noBuildId()) {
                writer.setFeature(Feature.BUILD_ID.bit(), new BuildIds(buildIds).encode());
            }
            writer.close();
        } catch (IOException e) {
            if (copier.failure() == null) {
                throw new RecordException(e.getMessage(), e);
            }
        }
        return lostSamples;
    }

    /**
     * One PERF_RECORD_LOST_SAMPLES per fd whose PERF_FORMAT_LOST count is not zero, after the last
     * records, as perf 6.1 writes them (builtin-record.c record__read_lost_samples): the kernel
     * counts every sample it dropped, also those after its last PERF_RECORD_LOST. Returns their sum.
     */
    private static long appendLostSamples(PerfEvents events, RecordCopier copier) {
        List<PerfEvents.Lost> lost = events.lostSamples();
        if (lost.isEmpty()) {
            return 0;
        }
        long sum = 0;
        SampleLayout trailer = SampleLayout.of(events.trackingType());
        SyntheticRecords s = new SyntheticRecords(trailer.sampleIdSize());
        for (PerfEvents.Lost l : lost) {
            s.lostSamples(l.lost(), l.id(), trailer.isPos());
            sum += l.lost();
        }
        copier.appendOwn(s.records());
        return sum;
    }
}
