package dev.jperf.recorder;

import static dev.jperf.format.header.PerfEventAttr.*;

import dev.jperf.format.BuildIdDir;
import dev.jperf.format.feature.BuildIds;
import dev.jperf.format.feature.Feature;
import dev.jperf.format.feature.SampleTime;
import dev.jperf.format.record.RecordType;
import dev.jperf.format.record.SampleLayout;
import dev.jperf.format.writer.PerfDataOutput;
import dev.jperf.format.writer.PerfDataWriter;
import dev.jperf.format.writer.PerfPipeWriter;
import dev.jperf.format.writer.RecordCompressor;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.Poll;
import dev.jperf.nativeshim.Sched;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * {@code jperf record}: opens the events, writes the start-up records perf writes, then copies the
 * rings into the file until the workload ends, the duration passes, or SIGINT/SIGTERM arrive.
 * The file is complete at every moment after start: the header and feature table are refreshed at
 * least once a second, so a {@code kill -9} loses at most the last second.
 */
public final class Recorder implements StopSignals.Stoppable {
    /** How long the main loop sleeps in poll at most: bounds stop latency and data age. */
    private static final int POLL_MS = 100;
    /**
     * How often the header and feature sections are rewritten so that the file stays readable
     * (kill -9 loses at most a second): checked after each pass, at most {@link #POLL_MS} apart,
     * so rewrites come 0.9-1.0 s apart. Each costs a flush and three writes.
     */
    private static final long CHECKPOINT_NS = 900_000_000L;
    private static final int PAGE_SIZE = 4096;
    /** Highest fd the table is grown to before recording: room for many programs pinned at once. */
    private static final int PINNED_FD_ROOM = 1023;
    /** Real-time priority of the draining loop: below the side-band threads'. */
    private static final int MAIN_PRIORITY = 1;

    /** What a recording produced. */
    public record Result(String output, long bytes, long samples, long lost, int bpfCaptured, int bpfMissed,
            int workloadExit, String writeFailure) {}

    private final RecordOptions options;
    private final PrintStream err;
    private final BpfCapture capture = new BpfCapture();
    private volatile boolean stopRequested;
    private long bpfVersion = -1;
    /** Pipe mode: the BPF programs and BTFs the stream carries so far. */
    private StreamedBpf streamedBpf;
    /** Sum of the LOST_SAMPLES counts written at the end. */
    private long lostSamples;
    /** {@code -z}: packs ring records into COMPRESSED records; null without. */
    private RecordCompressor compressor;
    /** Read once at start; also what the build-id cache keeps of the kernel. */
    private Kallsyms kallsyms;
    /**
     * Whether the BPF trampoline/dispatcher images were synthesized (kallsyms read whole). If not,
     * the first program loaded while recording has them synthesized at its time: the XDP
     * dispatcher, built once per boot, may already exist and start running with that program, and
     * the kernel announces it only when it is built.
     */
    private boolean imagesSynthesized;

    public Recorder(RecordOptions options, PrintStream err) {
        this.options = options;
        this.err = err;
    }

    /** Asks the recording to stop (signal handlers, tests). */
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
        List<Integer> threads = threads(workload);
        boolean enableOnExec = workload != null && !options.systemWide();
        PerfEvents events;
        try {
            events = PerfEvents.open(options, cpus, threads, enableOnExec);
        } catch (IllegalArgumentException e) {
            throw new RecordException(e.getMessage(), e);
        }
        try {
            return record(events, cpus, threads, workload, enableOnExec);
        } finally {
            events.close();
        }
    }

    private Result record(PerfEvents events, List<Integer> cpus, List<Integer> threads, Workload workload,
            boolean enableOnExec) throws IOException, InterruptedException {
        Path out = options.output();
        PerfDataOutput writer = options.pipeOutput() ? createPipe(events) : createWriter(out, events);
        HeaderFeatures.setStatic(writer, events.evsels(), options.cmdline());
        int trailer = SampleLayout.of(PerfEvents.TRACKING_SAMPLE_TYPE).sampleIdSize();
        SampleLayout samples = SampleLayout.of(events.sampleType());
        DsoHits hits = new DsoHits(samples.offset(PERF_SAMPLE_IP), samples.offset(PERF_SAMPLE_TID));
        // perf's comp_mmap_len: the ring with its header page; its reader decompresses that much at a time
        compressor = options.compressionLevel() > 0 ? new RecordCompressor((options.mmapPages() + 1) * PAGE_SIZE) : null;
        RecordCopier copier = new RecordCopier(writer, compressor, capture, trailer, samples.offset(PERF_SAMPLE_TIME),
                hits);
        // what is known at start: all a pipe gets of these sections (perf 6.1 does the same)
        updateFeatures(copier, writer);
        List<SideBand> sideBands = new ArrayList<>();
        for (RingBuffer r : events.sideBandRings()) {
            sideBands.add(new SideBand(r, capture));
        }
        int workloadExit = -1;
        try {
            growFdTable();
            capture.startFetcher();
            for (SideBand sb : sideBands) {
                sb.start();
            }
            synthesize(events, cpus, threads, copier, trailer);
            if (!enableOnExec) {
                events.enableSampling();
            }
            if (workload != null) {
                workload.go();
            }
            long deadline = options.duration() == null ? Long.MAX_VALUE
                    : System.nanoTime() + options.duration().toNanos();
            // an anonymous class, not a lambda (see recordWithSignals)
            BooleanSupplier done = new BooleanSupplier() {
                @Override
                public boolean getAsBoolean() {
                    return stopRequested || System.nanoTime() >= deadline || (workload != null && !workload.alive())
                            || copier.failure() != null;
                }
            };
            loop(events, copier, writer, done);
        } finally {
            events.disableAll();
            for (SideBand sb : sideBands) {
                sb.stop();
            }
            if (workload != null && workload.alive() && (stopRequested || copier.failure() != null
                    || options.duration() != null)) {
                workload.terminate();
            }
            if (workload != null) {
                workloadExit = workload.waitFor(2000);
            }
            finish(events, copier, writer, hits);
        }
        for (SideBand sb : sideBands) {
            if (sb.crash() != null) {
                throw new RecordException("side-band reader failed: " + sb.crash(), sb.crash());
            }
        }
        long bytes = writer.written();
        // the kernel counts a dropped sample in its next PERF_RECORD_LOST and in the fd's lost
        // count together; the fd counts also hold those no LOST record reported before the end
        Result r = new Result(writer.name(), bytes, copier.samples(), Math.max(copier.lost(), lostSamples),
                capture.captured(), capture.missed(),
                workloadExit, copier.failure() == null ? null : copier.failure().getMessage());
        if (!options.quiet()) {
            summary(r);
        }
        return r;
    }

    /** Pinned programs hold fds: make room for them before the race starts (see Fd.growTable). */
    private static void growFdTable() {
        try {
            Fd.growTable(PINNED_FD_ROOM);
        } catch (NativeException e) {
            // RLIMIT_NOFILE below it: the table grows on demand, slower
        }
    }

    private List<Integer> threads(Workload workload) throws IOException {
        if (options.systemWide()) {
            return List.of(-1);
        }
        if (workload != null) {
            return List.of(workload.pid());
        }
        if (!options.tids().isEmpty()) {
            return options.tids();
        }
        List<Integer> tids = new ArrayList<>();
        for (int pid : options.pids()) {
            Path task = Path.of("/proc/" + pid + "/task");
            if (!Files.isDirectory(task)) {
                throw new RecordException("no such process: " + pid);
            }
            try (var s = Files.list(task)) {
                List<Integer> these = new ArrayList<>();
                for (Iterator<Path> i = s.iterator(); i.hasNext(); ) {
                    these.add(Integer.parseInt(i.next().getFileName().toString()));
                }
                Collections.sort(these);
                tids.addAll(these);
            }
        }
        return tids;
    }

    /** perf's pipe mode: the stream on stdout (the workload's stdout goes to stderr, see Workload). */
    private static PerfDataOutput createPipe(PerfEvents events) {
        try {
            return PerfPipeWriter.create(new FileOutputStream(FileDescriptor.out).getChannel(), "-", events.fileAttrs());
        } catch (IOException e) {
            throw new RecordException("cannot write to standard output: " + reason(e), e);
        }
    }

    private PerfDataWriter createWriter(Path out, PerfEvents events) {
        try {
            PerfDataWriter.backupExisting(out);
            return PerfDataWriter.create(out, events.fileAttrs());
        } catch (IOException e) {
            String why = reason(e);
            String prefix = out + ": ";
            throw new RecordException("cannot write output file " + out + ": "
                    + (why.startsWith(prefix) ? why.substring(prefix.length()) : why), e);
        }
    }

    private static String reason(IOException e) {
        String m = e.getMessage();
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "Permission denied";
        }
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "No such file or directory";
        }
        if (e instanceof java.nio.file.FileSystemException fse && fse.getReason() != null) {
            return fse.getReason();
        }
        return m == null ? e.getClass().getSimpleName() : m;
    }

    /** The start-up records, in perf's order (perf-data-format.md §10). */
    private void synthesize(PerfEvents events, List<Integer> cpus, List<Integer> threads, RecordCopier copier,
            int trailer) throws IOException {
        SyntheticRecords s = new SyntheticRecords(trailer);
        s.idIndex(events.idIndex());
        kallsyms = Kallsyms.kernelRange(Path.of("/proc/kallsyms"), Path.of("/proc/iomem"));
        ProcSynthesizer proc = new ProcSynthesizer(Path.of("/proc"), s);
        proc.kernel(kallsyms);
        if (options.pipeOutput()) {
            // a file carries the names in EVENT_DESC; a stream names its events here too, as perf does
            for (PerfEvents.Evsel e : events.evsels()) {
                s.eventUpdateName(e.ids().get(0), e.name());
            }
        }
        int[] tids = Cpus.toArray(threads);
        String[] comms = new String[tids.length];
        for (int i = 0; i < tids.length; i++) {
            comms[i] = tids[i] == -1 ? "" : comm(tids[i]);
        }
        s.threadMap(tids, comms);
        s.cpuMap(Cpus.toArray(cpus));
        BpfSynthesizer bpf = new BpfSynthesizer(capture, s);
        bpf.loadedPrograms();
        if (bpf.imagesPossible()) {
            kallsyms = kallsyms.complete();
        }
        bpf.images(kallsyms, PAGE_SIZE);
        imagesSynthesized = kallsyms.whole();
        if (options.systemWide()) {
            proc.allProcesses();
        } else {
            for (int tid : tids) {
                int tgid = tgid(tid);
                if (tgid > 0) {
                    proc.thread(tgid, tid, tgid == tid);
                }
            }
        }
        s.empty(RecordType.PERF_RECORD_FINISHED_INIT);
        copier.appendOwn(s.records());
    }

    private static String comm(int tid) {
        try {
            return Files.readString(Path.of("/proc/" + tid + "/comm")).strip();
        } catch (IOException e) {
            return "";
        }
    }

    private static int tgid(int tid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + tid + "/status"))) {
                if (line.startsWith("Tgid:")) {
                    return Integer.parseInt(line.substring(5).strip());
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return -1;
    }

    private void loop(PerfEvents events, RecordCopier copier, PerfDataOutput writer, BooleanSupplier done)
            throws IOException {
        Drain drain = new Drain(events, copier, writer);
        boolean realtime = false;
        try {
            // a busy machine must not keep the rings from being drained (lost samples)
            Sched.setFifo(MAIN_PRIORITY);
            realtime = true;
        } catch (NativeException e) {
            // no CAP_SYS_NICE: drain as an ordinary thread
        }
        try {
            // this loop runs once per recording, ~20 rounds a second: it stays interpreted, while
            // the launcher has Drain.step compiled after two calls (no on-stack replacement of a
            // method that is also compiled whole and never called again)
            while (!done.getAsBoolean() && drain.step()) {
                // step does it all
            }
        } finally {
            if (realtime) {
                Sched.setNormal();
            }
        }
    }

    /** The main loop's state: poll the sampling rings, drain them, checkpoint the file now and then. */
    private final class Drain {
        private final RingBuffer[] rings;
        private final Poll poll;
        private final ByteBuffer round = finishedRound();
        private final RecordCopier copier;
        private final PerfDataOutput writer;
        private final Idle idle = new Idle();
        private final boolean targetsOnly = !options.systemWide() && options.command().isEmpty();
        private long lastCheckpoint = System.nanoTime();

        Drain(PerfEvents events, RecordCopier copier, PerfDataOutput writer) {
            this.rings = events.samplingRings().toArray(new RingBuffer[0]);
            int[] fds = new int[rings.length];
            for (int i = 0; i < fds.length; i++) {
                fds[i] = rings[i].fd();
            }
            this.poll = new Poll(fds, Poll.POLLIN);
            this.copier = copier;
            this.writer = writer;
        }

        /** One round; false once every -p/-t target is gone (perf record -p stops when its process exits). */
        boolean step() throws IOException {
            boolean woken = poll.poll(POLL_MS) > 0;
            if (woken && targetsOnly && allHungUp(poll, rings.length)) {
                return false;
            }
            long before = copier.records() + copier.ownBytes();
            pass(rings, copier, round);
            capture.wakeFetcher();
            idle.after(woken, copier.records() + copier.ownBytes() != before);
            if (System.nanoTime() - lastCheckpoint >= CHECKPOINT_NS) {
                checkpoint(copier, writer);
                lastCheckpoint = System.nanoTime();
            }
            return true;
        }
    }

    private static boolean allHungUp(Poll poll, int n) {
        for (int i = 0; i < n; i++) {
            if ((poll.revents(i) & Poll.POLLHUP) == 0) {
                return false;
            }
        }
        return true;
    }

    /** A FINISHED_ROUND record, built once: the loop appends it ~20 times a second. */
    private static ByteBuffer finishedRound() {
        SyntheticRecords round = new SyntheticRecords(0);
        round.empty(RecordType.PERF_RECORD_FINISHED_ROUND);
        return round.records();
    }

    /**
     * One pass over the rings; a FINISHED_ROUND after it if anything was copied (ring-buffer.md §8).
     * The main thread is the file's only writer: no lock.
     */
    private void pass(RingBuffer[] rings, RecordCopier copier, ByteBuffer round) {
        long before = copier.records() + copier.ownBytes();
        for (RingBuffer r : rings) {
            r.drain(copier);
        }
        if (!imagesSynthesized && copier.firstProgLoadTrailer() != null) {
            imagesAtFirstLoad(copier);
        }
        if (copier.records() + copier.ownBytes() != before) {
            copier.appendOwnPlain(round);
        }
    }

    /**
     * The BPF images as KSYMBOLs at the time of the first PROG_LOAD (its sample_id trailer), in
     * the same round as it, so that perf orders them with it.
     */
    private void imagesAtFirstLoad(RecordCopier copier) {
        imagesSynthesized = true;
        try {
            kallsyms = kallsyms.complete();
        } catch (IOException e) {
            return; // kallsyms unreadable now: the images stay unnamed, as without them
        }
        SyntheticRecords s = new SyntheticRecords(copier.firstProgLoadTrailer());
        new BpfSynthesizer(capture, s).images(kallsyms, PAGE_SIZE);
        if (s.size() > 0) {
            copier.appendOwn(s.records());
        }
    }

    private void checkpoint(RecordCopier copier, PerfDataOutput writer) {
        try {
            if (copier.failure() == null && writer.failure() == null) {
                updateFeatures(copier, writer);
                writer.checkpoint();
            }
        } catch (IOException e) {
            // the writer stopped and keeps the file readable; the copier sees the same failure next
        }
    }

    /** Drains everything left (side-band thread stopped), fetches the last pinned programs, closes the file. */
    private void finish(PerfEvents events, RecordCopier copier, PerfDataOutput writer, DsoHits hits)
            throws IOException, InterruptedException {
        pass(events.samplingRings().toArray(new RingBuffer[0]), copier, finishedRound());
        appendLostSamples(events, copier);
        copier.flushCompressor();
        capture.stopFetcher();
        List<BuildIds.Entry> buildIds = kallsyms == null ? List.of()
                : BuildIdCache.at(BuildIdDir.resolve(options.buildIdDir())).entries(hits, kallsyms, Path.of("/sys/kernel/notes"));
        try {
            updateFeatures(copier, writer);
            writer.setFeature(Feature.BUILD_ID.bit(), new BuildIds(buildIds).encode());
            writer.close();
        } catch (IOException e) {
            if (copier.failure() == null) {
                throw new RecordException(e.getMessage(), e);
            }
        }
    }

    /**
     * One PERF_RECORD_LOST_SAMPLES per fd whose PERF_FORMAT_LOST count is not zero, after the last
     * records, as perf 6.1 writes them (builtin-record.c record__read_lost_samples): the kernel
     * counts every sample it dropped, also those after its last PERF_RECORD_LOST.
     */
    private void appendLostSamples(PerfEvents events, RecordCopier copier) {
        List<PerfEvents.Lost> lost = events.lostSamples();
        if (lost.isEmpty()) {
            return;
        }
        SyntheticRecords s = new SyntheticRecords(SampleLayout.of(PerfEvents.TRACKING_SAMPLE_TYPE).sampleIdSize());
        for (PerfEvents.Lost l : lost) {
            s.lostSamples(l.lost(), l.id());
            lostSamples += l.lost();
        }
        copier.appendOwn(s.records());
    }

    /** SAMPLE_TIME always; the BPF sections when a program was captured since the last time. */
    private void updateFeatures(RecordCopier copier, PerfDataOutput writer) throws IOException {
        writer.setFeature(Feature.SAMPLE_TIME.bit(),
                new SampleTime(copier.firstSampleTime(), copier.lastSampleTime()).encode());
        if (compressor != null) {
            writer.setFeature(compressor.feature());
        }
        long v = capture.version();
        if (v != bpfVersion) {
            if (writer instanceof PerfPipeWriter pipe && streamedBpf != null) {
                streamedBpf.send(pipe, capture.programs(), capture.btfs());
            } else {
                HeaderFeatures.setBpf(writer, capture.programs(), capture.btfs());
                if (writer instanceof PerfPipeWriter) {
                    // what the stream's leading records carry; later programs go as records of their own
                    streamedBpf = new StreamedBpf(capture.programs().keySet(), capture.btfs().keySet());
                }
            }
            bpfVersion = v;
        }
    }

    private void summary(Result r) {
        String mb = String.format(Locale.ROOT, "%.3f", r.bytes() / 1024.0 / 1024.0);
        if (r.writeFailure() != null) {
            err.println("jperf record: " + r.writeFailure());
        }
        // perf's wording, ratio of the ring bytes to their COMPRESSED records
        String compressed = compressor == null || compressor.compressed() == 0 ? ""
                : String.format(Locale.ROOT, ", compressed (original %.3f MB, ratio is %.3f)",
                        compressor.transferred() / 1024.0 / 1024.0,
                        (double) compressor.transferred() / compressor.compressed());
        err.println("[ jperf record: Captured and wrote " + mb + " MB " + r.output() + " (" + r.samples() + " samples)"
                + compressed + " ]");
        err.println("[ jperf record: " + r.lost() + " lost samples; BPF programs: " + r.bpfCaptured() + " captured, "
                + r.bpfMissed() + " missed ]");
        if (streamedBpf != null && streamedBpf.tooLarge() > 0) {
            err.println("jperf record: " + streamedBpf.tooLarge() + " BPF program infos or BTFs are larger than one stream"
                    + " record (64 KiB) and are not in the stream: record to a file to keep them");
        }
    }
}
