package dev.jperf.recorder;

import dev.jperf.nativeshim.RingBuffer;
import static dev.jperf.format.header.PerfEventAttr.*;

import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.writer.PerfDataWriter;
import dev.jperf.format.record.ReadValues;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.Ioctl;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.PerfEventOpen;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kernel side of a recording: per CPU (and per thread when recording tasks) one fd per
 * sampling event, one tracking dummy and one side-band event, as perf opens them. The sampling
 * events and the tracking dummy of a CPU share one ring (SET_OUTPUT to the first fd), so MMAP2,
 * COMM, FORK/EXIT, KSYMBOL and BPF_EVENT records arrive in time order among the samples and wake
 * nobody. The side-band event (a dummy with bpf_event only, sample_type 0, not in the file) has a
 * small ring of its own that wakes its reader on every record (watermark 1): the {@link SideBand}
 * thread pins each program the moment it loads. Only the tracking dummy among the events in the
 * file asks for ksymbol/bpf_event, and the side-band event adds no trailer, so no record is
 * inflated (ring-buffer.md §7). Every event inherits, as perf's do (meaningless system-wide,
 * follows children otherwise), unless {@code -i/--no-inherit}.
 */
final class PerfEvents implements AutoCloseable {
    /** What goes into the file for one event: its 128-byte attr, name and ids. */
    record Evsel(String name, byte[] attr, List<Long> ids) {
        long[] idArray() {
            long[] a = new long[ids.size()];
            for (int i = 0; i < a.length; i++) {
                a[i] = ids.get(i);
            }
            return a;
        }
    }

    /** One opened fd: the index of its evsel, and its kernel id. */
    record Counter(int evsel, int fd, long id) {}

    /** An fd's PERF_FORMAT_LOST count: samples the kernel dropped for it (ring full or paused). */
    record Lost(long id, long lost) {}

    static final long TRACKING_SAMPLE_TYPE = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID
            | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
    static final long READ_FORMAT_BITS = PERF_FORMAT_ID | PERF_FORMAT_LOST;
    /**
     * Data pages of a side-band ring: it holds only BPF_EVENT records (32 bytes each, more when
     * inflated by another session's events), read as they come; 16 pages hold a backlog of ~2000.
     */
    static final int SIDE_BAND_PAGES = 16;

    private final List<Evsel> evsels = new ArrayList<>();
    private final List<long[]> idIndex = new ArrayList<>();
    private final List<Integer> samplingFds = new ArrayList<>();
    private final List<Integer> allFds = new ArrayList<>();
    private final List<Counter> counters = new ArrayList<>();
    private final List<RingBuffer> samplingRings = new ArrayList<>();
    private final List<RingBuffer> sideBandRings = new ArrayList<>();
    /** The side-band events' fds: not in the file, not sampled, read by the side-band threads only. */
    private final List<Integer> sideBandFds = new ArrayList<>();
    private String sideBandFailure;
    private final List<Integer> cpus;
    private final long sampleType;
    /** The tracking dummy's sample_type: its records' sample_id trailer. */
    private final long trackingType;

    private final CallGraph callGraph;
    /** Events whose LBR call stack fell back to frame pointers (user space excluded). */
    private int lbrFallbacks;

    /** {@code --user-regs}: added to the sampling events' sample_regs_user (perf's evsel__config, not the dummy's). */
    private final long userRegs;

    /** {@code --running-time}'s read_format bits, on every event in the file. */
    private final long readFormat;

    /** {@code --no-buffering}: every event wakes the reader on each record (perf's wakeup_events 1). */
    private final boolean noBuffering;

    /** {@code --stat}'s inherit_stat, {@code --kernel-callchains}, {@code --user-callchains}: on every event. */
    private final long optionFlags;

    /** What the event being opened is in a {@code --group}. */
    private static final int NO_GROUP = 0;
    private static final int GROUP_LEADER = 1;
    private static final int GROUP_MEMBER = 2;
    private int groupRole = NO_GROUP;
    /** {@code --group}: the leader's fd per CPU and thread, which the members join. */
    private final Map<Long, Integer> groupLeaderFds = new LinkedHashMap<>();

    /** {@code --group}: how many events the group has, the first its leader (0: no group). */
    private int groupSize;

    int groupSize() {
        return groupSize;
    }

    private static long groupKey(int cpuIndex, int tid) {
        return ((long) cpuIndex << 32) | (tid & 0xffffffffL);
    }

    /** {@code -k/--clockid}: every event's clock (null: the kernel's perf clock). */
    private final Integer clockid;

    /** {@code -I/--intr-regs}: the sampling events' sample_regs_intr. */
    private final long intrRegs;

    /** {@code -b/-j}: the sampling events' branch_sample_type (perf's evsel__config, not the dummy's). */
    private final long branchStack;

    private PerfEvents(List<Integer> cpus, long sampleType, long trackingType, CallGraph callGraph, long userRegs,
            long readFormat, boolean noBuffering, long optionFlags, long intrRegs, long branchStack, Integer clockid) {
        this.clockid = clockid;
        this.cpus = cpus;
        this.optionFlags = optionFlags;
        this.intrRegs = intrRegs;
        this.branchStack = branchStack;
        this.trackingType = trackingType;
        this.noBuffering = noBuffering;
        this.readFormat = readFormat;
        this.sampleType = sampleType;
        this.callGraph = callGraph;
        this.userRegs = userRegs;
    }

    /**
     * Opens everything. {@code threads} is [-1] for system-wide recording; {@code enableOnExec}
     * defers sampling and tracking to the workload's exec; without {@code sideBand} (no BPF
     * metadata can be read) no side-band event is opened.
     */
    static PerfEvents open(RecordOptions o, List<Integer> cpus, List<Integer> threads, boolean enableOnExec,
            boolean sideBand) {
        List<EventSpec> specs = new ArrayList<>();
        if (o.events().isEmpty()) {
            specs.add(EventSpec.defaultEvent().withContexts(o.allUser(), o.allKernel()));
        }
        for (String e : o.events()) {
            for (String one : e.split(",")) {
                if (!one.isBlank()) {
                    specs.add(EventSpec.parse(one).withContexts(o.allUser(), o.allKernel()));
                }
            }
        }
        long sampleType = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU
                | (o.period() > 0 && !o.samplePeriod() ? 0 : PERF_SAMPLE_PERIOD) | o.callGraph().sampleType()
                | (o.userRegs() != 0 ? PERF_SAMPLE_REGS_USER : 0) | (o.intrRegs() != 0 ? PERF_SAMPLE_REGS_INTR : 0)
                | (o.branchStack() != 0 ? PERF_SAMPLE_BRANCH_STACK : 0) | o.optionSampleType();
        // perf's evsel__config gives the dummy -F or -c when the user gave one (user_freq,
        // user_interval), else leaves evlist__add_dummy's sample_period 1, no freq
        boolean userFreq = o.userRate() && o.period() == 0;
        // ... and the callchain settings, all but the branch stack bit (a dummy never samples branches)
        long trackingType = TRACKING_SAMPLE_TYPE | (o.callGraph().sampleType() & ~PERF_SAMPLE_BRANCH_STACK)
                | o.optionSampleType() | (userFreq || o.samplePeriod() ? PERF_SAMPLE_PERIOD : 0);
        if (!o.offCpu() && sameSampleType(specs, o.callGraph(), sampleType, trackingType)) {
            // perf's evlist__config: IDENTIFIER only where the events' sample_types differ; all
            // alike, ID (evsel__set_sample_id), which perf then finds by its place
            sampleType = sampleType & ~PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID;
            trackingType = trackingType & ~PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID;
        }
        PerfEvents ev = new PerfEvents(cpus, sampleType, trackingType, o.callGraph(), o.userRegs(),
                o.optionReadFormat(), o.noBuffering(), o.optionFlags(), o.intrRegs(), o.branchStack(),
                o.useClockid() ? o.clockid() : null);
        try {
            Map<Integer, Integer> samplingRingFd = new LinkedHashMap<>();
            for (int i = 0; i < specs.size(); i++) {
                // --group: perf's evlist__set_leader, the first event leading the others
                ev.groupRole = !o.group() ? NO_GROUP : i == 0 ? GROUP_LEADER : GROUP_MEMBER;
                ev.openSampling(o, specs.get(i), cpus, threads, enableOnExec, samplingRingFd);
            }
            ev.groupRole = NO_GROUP;
            if (o.offCpu()) {
                ev.openOffCpu(o, cpus, threads, enableOnExec, samplingRingFd);
            }
            // perf's tracking dummy: its records go into the sampling rings
            long inherit = o.noInherit() ? 0 : FLAG_INHERIT;
            long trackingFlags = inherit | (userFreq ? FLAG_FREQ : 0) | FLAG_MMAP | FLAG_COMM | FLAG_TASK | FLAG_SAMPLE_ID_ALL
                    | FLAG_MMAP2 | FLAG_COMM_EXEC | FLAG_KSYMBOL | (o.noBpfEvent() ? 0 : FLAG_BPF_EVENT)
                    | (o.sampleAddress() ? FLAG_MMAP_DATA : 0)
                    | (o.switchEvents() ? FLAG_CONTEXT_SWITCH : 0) | (o.namespaces() ? FLAG_NAMESPACES : 0)
                    | (enableOnExec && !o.group() ? FLAG_DISABLED | FLAG_ENABLE_ON_EXEC : 0);
            // perf 6.1 adds the dummy before it sets the leader: --group takes it in too
            ev.groupRole = o.group() ? GROUP_MEMBER : NO_GROUP;
            EventSpec dummy = new EventSpec("dummy:HG", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, 0, 0, false)
                    .withContexts(o.allUser(), o.allKernel());
            if (dummy.excludeFlags() != 0) {
                // perf names the dummy from its attr (evsel__name)
                dummy = new EventSpec("dummy" + EventSpec.modifiers(dummy.excludeFlags(), 0), dummy.type(),
                        dummy.config(), dummy.excludeFlags(), 0, false);
            }
            while (true) {
                // -n: perf's evsel__config zeroes sample_freq on every event, the dummy's period too
                long trackingPeriod = o.noSamples() ? 0 : o.period() > 0 ? o.period() : userFreq ? o.freq() : 1;
                byte[] tracking = attr(dummy.type(), dummy.config(), trackingPeriod, trackingType,
                        trackingFlags | dummy.excludeFlags(), 0);
                ev.addOptionBits(tracking);
                if (!o.systemWide()) {
                    // perf opens no dummy for a task target (its first event tracks): on jperf's, --stat's
                    // inherit_stat would double the kernel's PERF_RECORD_READs of exiting children
                    ByteBuffer t = ByteBuffer.wrap(tracking).order(ByteOrder.LITTLE_ENDIAN);
                    t.putLong(FLAGS, t.getLong(FLAGS) & ~FLAG_INHERIT_STAT);
                }
                o.callGraph().configure(ByteBuffer.wrap(tracking).order(ByteOrder.LITTLE_ENDIAN), o.userRegs());
                try {
                    List<Long> ids = ev.openAll(tracking, dummy.name(), cpus, threads, samplingRingFd,
                            ev.samplingRings, o.mmapPages(), false);
                    ev.evsels.add(new Evsel(dummy.name(), tracking, ids));
                    break;
                } catch (NativeException e) {
                    EventSpec next = fallback(dummy, e);
                    if (next == null) {
                        throw explain(e, dummy.name(), threads, 0);
                    }
                    dummy = next;
                }
            }
            ev.groupRole = NO_GROUP;
            ev.groupSize = o.group() ? specs.size() + 1 : 0;
            if (sideBand) {
                ev.openSideBand(cpus, threads, enableOnExec);
            }
            return ev;
        } catch (RuntimeException e) {
            ev.close();
            throw e;
        }
    }

    /**
     * perf's side-band event (evlist__add_bpf_sb_event): a dummy with bpf_event only, sample_type
     * 0 (so it adds nothing to the records other events receive) and read_format 0, waking its
     * reader on every record. Opened for the same CPUs and threads as the tracking dummy. As for
     * perf, a side-band event the kernel refuses is no error: the recording goes on without it
     * ({@link #sideBandFailure}).
     */
    private void openSideBand(List<Integer> cpus, List<Integer> threads, boolean enableOnExec) {
        byte[] a = attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, 0, 0,
                FLAG_SAMPLE_ID_ALL | FLAG_WATERMARK | FLAG_BPF_EVENT
                        | (enableOnExec ? FLAG_DISABLED | FLAG_ENABLE_ON_EXEC : 0), 1);
        ByteBuffer.wrap(a).order(ByteOrder.LITTLE_ENDIAN).putLong(READ_FORMAT, 0);
        Map<Integer, Integer> ringFd = new LinkedHashMap<>();
        for (int cpu : cpus) {
            for (int tid : threads) {
                int fd;
                try {
                    fd = PerfEventOpen.open(ByteBuffer.wrap(a).order(ByteOrder.LITTLE_ENDIAN), tid, cpu, -1,
                            PERF_FLAG_FD_CLOEXEC, "dummy (side-band)");
                } catch (NativeException e) {
                    if (e.errno() == Errno.ESRCH && tid != -1) {
                        continue; // the thread exited meanwhile
                    }
                    sideBandFailure = e.getMessage();
                    for (RingBuffer r : sideBandRings) {
                        r.close();
                    }
                    sideBandRings.clear();
                    for (int open : sideBandFds) {
                        Fd.close(open);
                    }
                    sideBandFds.clear();
                    return;
                }
                sideBandFds.add(fd);
                Integer target = ringFd.get(cpu);
                if (target == null) {
                    sideBandRings.add(RingBuffer.map(fd, cpu, SIDE_BAND_PAGES, Recorder.PAGE_SIZE));
                    ringFd.put(cpu, fd);
                } else {
                    Ioctl.setOutput(fd, target);
                }
            }
        }
    }

    private void openSampling(RecordOptions o, EventSpec spec, List<Integer> cpus, List<Integer> threads,
            boolean enableOnExec, Map<Integer, Integer> ringFd) {
        boolean freq = o.period() == 0;
        long period = o.noSamples() ? 0 : freq ? o.sampleFreq() : o.period();
        // -D: perf's evsel__config leaves enable_on_exec off; the sampling is enabled after the delay
        // a group member is enabled with its leader (perf's evsel__config: disabled, enable_on_exec on leaders alone)
        boolean leads = groupRole != GROUP_MEMBER;
        long flags = (leads ? FLAG_DISABLED : 0) | (o.noInherit() ? 0 : FLAG_INHERIT) | (freq ? FLAG_FREQ : 0)
                | FLAG_SAMPLE_ID_ALL | (leads && enableOnExec && o.delayMs() == 0 ? FLAG_ENABLE_ON_EXEC : 0);
        // perf's record__open: each failure's evsel__fallback tried until none is left
        for (EventSpec current = spec; ; ) {
            NativeException failure = openSamplingPrecise(current, flags, period, cpus, threads, ringFd,
                    o.mmapPages());
            if (failure == null) {
                if (lbrFallsBack(current)) {
                    lbrFallbacks++;
                }
                return;
            }
            EventSpec next = fallback(current, failure);
            if (next == null) {
                throw explain(failure, current.name(), threads, sampleTypeOf(current));
            }
            current = next;
        }
    }

    /** Opens {@code spec}, lowering precise_ip as perf's evsel__precise_ip_fallback does; the last failure, or null. */
    private NativeException openSamplingPrecise(EventSpec spec, long flags, long period, List<Integer> cpus,
            List<Integer> threads, Map<Integer, Integer> ringFd, int pages) {
        NativeException failure;
        try {
            openSampling(spec, flags, period, cpus, threads, ringFd, pages);
            return null;
        } catch (NativeException e) {
            failure = e;
        }
        for (int p = spec.preciseMax() ? spec.preciseIp() - 1 : -1; p >= 0; p--) {
            try {
                openSampling(spec.withPreciseIp(p), flags, period, cpus, threads, ringFd, pages);
                return null;
            } catch (NativeException e) {
                failure = e;
            }
        }
        return failure;
    }

    /**
     * perf 6.1's evsel__fallback for an event the kernel refused: {@code cycles} without a PMU
     * becomes cpu-clock; under perf_event_paranoid above 1 an EACCES (kernel profiling not allowed)
     * becomes the same event for user space only. Null when neither applies.
     */
    static EventSpec fallback(EventSpec spec, NativeException failure) {
        int errno = failure.errno();
        if (errno == Errno.ENOENT || errno == Errno.EOPNOTSUPP || errno == Errno.ENODEV || errno == Errno.EINVAL) {
            return spec.softwareFallback();
        }
        if (errno == Errno.EACCES && Privileges.paranoid() > 1) {
            return spec.userOnlyFallback();
        }
        return null;
    }

    /**
     * perf's off_cpu_config: the offcpu-time event, a BPF_OUTPUT software event at frequency 1
     * that never samples by itself; it is opened with the others so that the off-CPU samples
     * written at the end have an attr, a name and an id in the file.
     */
    private void openOffCpu(RecordOptions o, List<Integer> cpus, List<Integer> threads, boolean enableOnExec,
            Map<Integer, Integer> ringFd) {
        long flags = FLAG_DISABLED | (o.noInherit() ? 0 : FLAG_INHERIT) | FLAG_FREQ | FLAG_SAMPLE_ID_ALL
                | (enableOnExec && o.delayMs() == 0 ? FLAG_ENABLE_ON_EXEC : 0);
        byte[] a = attr(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT, 1, OffCpu.sampleType(sampleType), flags, 0);
        addOptionBits(a);
        try {
            List<Long> ids = openAll(a, OffCpu.EVENT, cpus, threads, ringFd, samplingRings, o.mmapPages(), true);
            evsels.add(new Evsel(OffCpu.EVENT, a, ids));
        } catch (NativeException e) {
            throw explain(e, OffCpu.EVENT, threads, OffCpu.sampleType(sampleType));
        }
    }

    /** The offcpu-time event, or null without --off-cpu. */
    Evsel offCpu() {
        for (Evsel e : evsels) {
            if (e.name().equals(OffCpu.EVENT)) {
                return e;
            }
        }
        return null;
    }

    private void openSampling(EventSpec spec, long flags, long period, List<Integer> cpus, List<Integer> threads,
            Map<Integer, Integer> ringFd, int pages) {
        byte[] a = attr(spec.type(), spec.config(), period, sampleTypeOf(spec),
                flags | spec.excludeFlags() | ((long) spec.preciseIp() << PRECISE_IP_SHIFT), 0);
        addOptionBits(a);
        ByteBuffer b = ByteBuffer.wrap(a).order(ByteOrder.LITTLE_ENDIAN);
        (lbrFallsBack(spec) ? CallGraph.FP : callGraph).configure(b, userRegs);
        b.putLong(SAMPLE_REGS_USER, b.getLong(SAMPLE_REGS_USER) | userRegs);
        b.putLong(SAMPLE_REGS_INTR, intrRegs);
        if (branchStack != 0) {
            b.putLong(BRANCH_SAMPLE_TYPE, branchStack);
        }
        List<Long> ids = openAll(a, spec.name(), cpus, threads, ringFd, samplingRings, pages, true);
        evsels.add(new Evsel(spec.name(), a, ids));
    }

    /**
     * perf's __evsel__config_callchain: the LBR call stack is user space only, so an event that
     * excludes user space falls back to frame pointers.
     */
    private boolean lbrFallsBack(EventSpec spec) {
        return lbrFallsBack(callGraph, spec);
    }

    private static boolean lbrFallsBack(CallGraph callGraph, EventSpec spec) {
        return callGraph.mode() == CallGraph.Mode.LBR && (spec.excludeFlags() & FLAG_EXCLUDE_USER) != 0;
    }

    private long sampleTypeOf(EventSpec spec) {
        return lbrFallsBack(spec) ? sampleType & ~PERF_SAMPLE_BRANCH_STACK : sampleType;
    }

    private List<Long> openAll(byte[] attr, String name, List<Integer> cpus, List<Integer> threads,
            Map<Integer, Integer> ringFd, List<RingBuffer> rings, int pages, boolean sampling) {
        int fdsBefore = allFds.size();
        int samplingBefore = samplingFds.size();
        int ringsBefore = rings.size();
        int countersBefore = counters.size();
        int indexBefore = idIndex.size();
        Map<Integer, Integer> ringFdBefore = new LinkedHashMap<>(ringFd);
        try {
            return openEach(attr, name, cpus, threads, ringFd, rings, pages, sampling);
        } catch (RuntimeException e) {
            // a failed attempt leaves nothing behind: the caller may try another attr
            for (int i = rings.size() - 1; i >= ringsBefore; i--) {
                rings.remove(i).close();
            }
            for (int i = allFds.size() - 1; i >= fdsBefore; i--) {
                Fd.close(allFds.remove(i));
            }
            samplingFds.subList(samplingBefore, samplingFds.size()).clear();
            counters.subList(countersBefore, counters.size()).clear();
            idIndex.subList(indexBefore, idIndex.size()).clear();
            ringFd.clear();
            ringFd.putAll(ringFdBefore);
            throw e;
        }
    }

    private List<Long> openEach(byte[] attr, String name, List<Integer> cpus, List<Integer> threads,
            Map<Integer, Integer> ringFd, List<RingBuffer> rings, int pages, boolean sampling) {
        List<Long> ids = new ArrayList<>();
        int evselIdx = evsels.size();
        for (int ci = 0; ci < cpus.size(); ci++) {
            int cpu = cpus.get(ci);
            for (int tid : threads) {
                int fd;
                try {
                    Integer leader = groupRole == GROUP_MEMBER ? groupLeaderFds.get(groupKey(ci, tid)) : null;
                    fd = openOne(attr, tid, cpu, leader == null ? -1 : leader, name);
                } catch (NativeException e) {
                    if (e.errno() == Errno.ESRCH && tid != -1) {
                        continue; // the thread exited meanwhile
                    }
                    throw e;
                }
                allFds.add(fd);
                if (groupRole == GROUP_LEADER) {
                    groupLeaderFds.put(groupKey(ci, tid), fd);
                }
                if (sampling) {
                    samplingFds.add(fd);
                }
                Integer target = ringFd.get(cpu);
                if (target == null) {
                    rings.add(RingBuffer.map(fd, cpu, pages, Recorder.PAGE_SIZE));
                    ringFd.put(cpu, fd);
                } else {
                    Ioctl.setOutput(fd, target);
                }
                long id = Ioctl.id(fd);
                ids.add(id);
                counters.add(new Counter(evselIdx, fd, id));
                idIndex.add(new long[] {id, ci, cpu, tid});
            }
        }
        if (ids.isEmpty()) {
            throw new RecordException("no thread left to record: every target thread has exited");
        }
        return ids;
    }

    /**
     * perf_event_open of {@code attr}; a kernel before 6.0 rejects PERF_FORMAT_LOST with EINVAL:
     * then, as perf does (evsel__detect_missing_features), the bit is dropped from {@code attr}
     * itself (so the file's attr says what was opened) and the open retried.
     */
    private static int openOne(byte[] attr, int tid, int cpu, int groupFd, String name) {
        ByteBuffer a = ByteBuffer.wrap(attr).order(ByteOrder.LITTLE_ENDIAN);
        try {
            return PerfEventOpen.open(a, tid, cpu, groupFd, PERF_FLAG_FD_CLOEXEC, name);
        } catch (NativeException e) {
            long readFormat = a.getLong(READ_FORMAT);
            if (e.errno() != Errno.EINVAL || (readFormat & PERF_FORMAT_LOST) == 0) {
                throw e;
            }
            a.putLong(READ_FORMAT, readFormat & ~PERF_FORMAT_LOST);
            return PerfEventOpen.open(a, tid, cpu, groupFd, PERF_FLAG_FD_CLOEXEC, name);
        }
    }

    /** What the options add to every event in the file: --running-time's read_format, --no-buffering's wakeup. */
    private void addOptionBits(byte[] attr) {
        ByteBuffer b = ByteBuffer.wrap(attr).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(READ_FORMAT, b.getLong(READ_FORMAT) | readFormat);
        b.putLong(FLAGS, b.getLong(FLAGS) | optionFlags | (clockid != null ? FLAG_USE_CLOCKID : 0));
        if (clockid != null) {
            b.putInt(CLOCKID, clockid);
        }
        if (noBuffering) {
            b.putInt(WAKEUP_EVENTS, 1);
        }
    }

    /** A sampling event's perf_event_attr (format's {@link PerfEventAttr#open}). */
    static byte[] attr(int type, long config, long period, long sampleType, long flags, int wakeup) {
        ByteBuffer a = PerfEventAttr.open(type, config);
        a.putLong(SAMPLE_PERIOD, period);
        a.putLong(SAMPLE_TYPE, sampleType);
        a.putLong(READ_FORMAT, READ_FORMAT_BITS);
        a.putLong(FLAGS, flags);
        a.putInt(WAKEUP_EVENTS, wakeup);
        return a.array();
    }

    /**
     * Turns an open failure into the one line a user can act on; a refused event exits 255, as
     * perf record does when it cannot open its events.
     */
    static RecordException explain(NativeException e, String event, List<Integer> threads, long sampleType) {
        int errno = e.errno();
        if (errno == Errno.EOPNOTSUPP && (sampleType & PERF_SAMPLE_BRANCH_STACK) != 0) {
            // perf's evsel__open_strerror, word for word (--call-graph lbr on an event or PMU without LBR)
            return new RecordException(event + ": PMU Hardware or event type doesn't support branch stack sampling.",
                    e, RecordException.OPEN_FAILED);
        }
        if (errno == Errno.EACCES || errno == Errno.EPERM) {
            return new RecordException(Privileges.noPermission(event, threads.get(0), threads.size()), e,
                    RecordException.OPEN_FAILED);
        }
        if (errno == Errno.ENOENT || errno == Errno.EOPNOTSUPP || errno == Errno.ENODEV) {
            return new RecordException("event '" + event + "' is not supported by this machine's PMU ("
                    + e.getMessage() + ")", e, RecordException.OPEN_FAILED);
        }
        if (errno == Errno.EMFILE) {
            return new RecordException("too many open files for the events: raise the limit with 'ulimit -n' ("
                    + e.getMessage() + ")", e, RecordException.OPEN_FAILED);
        }
        if (errno == Errno.ESRCH) {
            return new RecordException("no such process or thread (" + e.getMessage() + ")", e,
                    RecordException.OPEN_FAILED);
        }
        return new RecordException(e.getMessage(), e, RecordException.OPEN_FAILED);
    }

    /**
     * How many events record frame-pointer callchains where {@code --call-graph lbr} was asked,
     * since they exclude user space (perf warns once for each).
     */
    int lbrFallbacks() {
        return lbrFallbacks;
    }

    /** Why the side-band event could not be opened (the kernel's answer), or null. */
    String sideBandFailure() {
        return sideBandFailure;
    }

    List<Evsel> evsels() {
        return evsels;
    }

    /** The file's attrs and ids, in the order written. */
    List<PerfDataWriter.EventAttr> fileAttrs() {
        List<PerfDataWriter.EventAttr> out = new ArrayList<>();
        for (Evsel e : evsels) {
            out.add(new PerfDataWriter.EventAttr(e.attr(), e.idArray()));
        }
        return out;
    }

    /** {id, idx, cpu, tid} per fd, for PERF_RECORD_ID_INDEX. */
    long[][] idIndex() {
        return idIndex.toArray(new long[0][]);
    }

    /** One ring per CPU: the samples and the tracking dummy's records, drained by the main pass. */
    List<RingBuffer> samplingRings() {
        return samplingRings;
    }

    /** One ring per CPU of the side-band events: BPF_EVENT records only, for the side-band threads. */
    List<RingBuffer> sideBandRings() {
        return sideBandRings;
    }

    List<Integer> cpus() {
        return cpus;
    }

    long sampleType() {
        return sampleType;
    }

    /** The tracking dummy's sample_type, whose sample_id trailer the side-band records in the file carry. */
    long trackingType() {
        return trackingType;
    }

    /** Whether every sampling event (after its LBR fallback) samples what the tracking dummy samples. */
    private static boolean sameSampleType(List<EventSpec> specs, CallGraph callGraph, long sampleType,
            long trackingType) {
        for (EventSpec spec : specs) {
            if ((lbrFallsBack(callGraph, spec) ? sampleType & ~PERF_SAMPLE_BRANCH_STACK : sampleType) != trackingType) {
                return false;
            }
        }
        return true;
    }

    /**
     * Each fd's lost-sample count, read (value, id, lost: read_format ID|LOST) as perf 6.1 reads it
     * at the end of a recording (builtin-record.c record__read_lost_samples); fds of events opened
     * without PERF_FORMAT_LOST (a kernel before 6.0) have none. Only non-zero counts are returned.
     */
    List<Lost> lostSamples() {
        List<Lost> out = new ArrayList<>();
        for (Counter c : counters) {
            long readFormat = ByteBuffer.wrap(evsels.get(c.evsel()).attr()).order(ByteOrder.LITTLE_ENDIAN)
                    .getLong(READ_FORMAT);
            if ((readFormat & PERF_FORMAT_LOST) == 0) {
                continue;
            }
            int size = ReadValues.readSize(readFormat);
            byte[] v;
            try {
                v = Fd.read(c.fd(), size, "lost count of " + evsels.get(c.evsel()).name());
            } catch (NativeException e) {
                continue; // perf, too, writes what it could read
            }
            if (v.length == size) {
                long lost = ReadValues.fromRead(v, readFormat).lost()[0];
                if (lost != 0) {
                    out.add(new Lost(c.id(), lost));
                }
            }
        }
        return out;
    }

    void enableSampling() {
        for (int fd : samplingFds) {
            Ioctl.enable(fd);
        }
    }

    void disableAll() {
        for (int fd : allFds) {
            try {
                Ioctl.disable(fd);
            } catch (NativeException e) {
                // the task is gone: the event is already dead
            }
        }
    }

    @Override
    public void close() {
        for (RingBuffer r : samplingRings) {
            r.close();
        }
        for (RingBuffer r : sideBandRings) {
            r.close();
        }
        for (int fd : allFds) {
            Fd.close(fd);
        }
        for (int fd : sideBandFds) {
            Fd.close(fd);
        }
    }
}
