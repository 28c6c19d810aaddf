package dev.jperf.recorder;

import dev.jperf.format.header.PerfEventAttr;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What {@code jperf record} was asked to do, in perf's terms. Exactly one target: all CPUs
 * ({@code -a}), a CPU list ({@code -C}), processes ({@code -p}), threads ({@code -t}) or a command.
 *
 * @param allCpus    {@code -a}
 * @param cpus       {@code -C}: CPUs to record system-wide (empty: not given)
 * @param pids       {@code -p}: processes, every thread of each
 * @param tids       {@code -t}: threads
 * @param command    the workload after {@code --}; events are enabled when it execs
 * @param events     {@code -e} names; empty means perf's default ({@code cycles}, else cpu-clock)
 * @param freq       {@code -F}: samples per second (0: not given)
 * @param period     {@code -c}: fixed sample period (0: not given)
 * @param callGraph  {@code -g}, {@code --call-graph}: how callchains are recorded ({@link CallGraph#NONE}: not)
 * @param mmapPages  {@code -m}: data pages per ring (power of two)
 * @param output     {@code -o}; {@code -} is perf's pipe mode on stdout
 * @param duration   stop after this long (null: until the command ends or a signal)
 * @param quiet      {@code --quiet}: no summary lines
 * @param cmdline    the whole command line, for HEADER_CMDLINE
 * @param compressionLevel {@code -z} / {@code --compression-level=n}: zstd level asked, 1 to 22
 *     (0: no compression)
 * @param buildIdDir {@code --buildid-dir}: the build-id cache to fill (null: {@code PERF_BUILDID_DIR},
 *     else {@code ~/.debug})
 * @param noBuildId  {@code -B/--no-buildid}: no HEADER_BUILD_ID, no build-id read, nothing cached
 * @param noBuildIdCache {@code -N/--no-buildid-cache}: HEADER_BUILD_ID written, the cache untouched
 * @param noInherit  {@code -i/--no-inherit}: child tasks are not followed (inherit 0 on every event)
 * @param allUser    {@code --all-user}: every event user space only (exclude_kernel, not exclude_user)
 * @param allKernel  {@code --all-kernel}: every event kernel only (exclude_user, not exclude_kernel)
 * @param switchEvents {@code --switch-events}: the tracking event asks for context_switch
 *     (PERF_RECORD_SWITCH, system-wide PERF_RECORD_SWITCH_CPU_WIDE)
 * @param namespaces {@code --namespaces}: the tracking event asks for PERF_RECORD_NAMESPACES, and
 *     one is synthesized for every task found at start
 * @param delayMs    {@code -D/--delay}: sampling starts this many ms after the workload (or the
 *     recording) starts; -1: never (perf's "start with events disabled"); 0: at once
 * @param timestampFilename {@code --timestamp-filename}: the finished file renamed to
 *     {@code output.YYYYmmddHHMMSScc} (local time, centiseconds), as perf renames it
 * @param noSamples  {@code -n/--no-samples}: sample_freq (or period) 0 on every event, as perf sets
 *     it: the side-band records only
 * @param userRegs   {@code --user-regs}: the user registers every sample carries (sample_regs_user
 *     of the sampling events; 0: none asked)
 * @param offCpu     {@code --off-cpu}: where tasks wait, from a BPF program on sched_switch, written
 *     as {@code offcpu-time} samples when the recording ends ({@link OffCpu})
 * @param data       {@code -d/--data}: perf's sample_address (ADDR and DATA_SRC on every event, data
 *     mmaps tracked and synthesized)
 * @param physData   {@code --phys-data}: PHYS_ADDR on every event
 * @param weight     {@code -W/--weight}: WEIGHT_STRUCT on every event (x86's arch_evsel__set_sample_weight)
 * @param rawSamples {@code -R/--raw-samples}: RAW on every event
 * @param runningTime {@code --running-time}: read_format TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING on every event
 * @param noBpfEvent {@code --no-bpf-event}: no BPF side-band: the tracking event without bpf_event,
 *     no program synthesized or captured (HEADER_BPF_PROG_INFO empty)
 * @param noBuffering {@code --no-buffering}: every event wakes the reader on each record (wakeup_events 1)
 * @param maxSize    {@code --max-size}: the recording stops once this many bytes are written (0: no limit)
 * @param samplePeriod {@code -P/--period}: PERIOD sampled on every event, the tracking dummy too, also with {@code -c}
 * @param defaultFreq the frequency without {@code -F}: {@link #DEFAULT_FREQ}, or the kernel's maximum when that is
 *     lower (perf's throttling); unlike {@code -F}, the tracking dummy keeps its sample_period 1
 * @param codePageSize {@code --code-page-size}: CODE_PAGE_SIZE on every event
 * @param dataPageSize {@code --data-page-size}: DATA_PAGE_SIZE on every event
 * @param kernelCallchains {@code --kernel-callchains}: exclude_callchain_user on every event with callchains
 * @param userCallchains {@code --user-callchains}: exclude_callchain_kernel on every event with callchains
 * @param intrRegs   {@code -I/--intr-regs}: the registers at the interrupt every sample carries
 *     (sample_regs_intr of the sampling events; 0: none asked)
 * @param branchStack {@code -b/-j}: the sampling events' branch_sample_type (0: no branch stack)
 * @param useClockid {@code -k/--clockid}: every event timed by {@code clockid} (use_clockid), the header's
 *     CLOCKID and CLOCK_DATA written
 * @param clockid    the clock {@code -k} named
 * @param synth      {@code --synth}: what is synthesized at start ({@link #SYNTH_TASK}, {@link #SYNTH_MMAP},
 *     {@link #SYNTH_CGROUP}; perf's PERF_SYNTH_* bits; default {@link #SYNTH_ALL})
 * @param inheritStat {@code -s/--stat}: inherit_stat and read_format TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING on
 *     every event (the kernel then writes a PERF_RECORD_READ of each child task's counts when it exits)
 * @param group      {@code --group}: the events in one group led by the first, the tracking dummy too (as perf 6.1)
 */
public record RecordOptions(boolean allCpus, List<Integer> cpus, List<Integer> pids, List<Integer> tids,
        List<String> command, List<String> events, int freq, long period, CallGraph callGraph, int mmapPages,
        Path output, Duration duration, boolean quiet, List<String> cmdline, int compressionLevel, Path buildIdDir,
        boolean noBuildId, boolean noBuildIdCache, boolean noInherit, boolean allUser, boolean allKernel,
        boolean switchEvents, boolean namespaces, boolean noSamples, int delayMs,
        boolean timestampFilename, long userRegs, boolean offCpu, boolean data, boolean physData, boolean weight,
        boolean rawSamples, boolean runningTime, boolean noBpfEvent, boolean noBuffering, long maxSize,
        boolean samplePeriod, int defaultFreq, boolean codePageSize, boolean dataPageSize, boolean kernelCallchains,
        boolean userCallchains, long intrRegs, long branchStack, boolean useClockid, int clockid,
        boolean group, int synth, boolean inheritStat) {

    /** perf's default sampling frequency. */
    public static final int DEFAULT_FREQ = 4000;
    /** perf's default ring: 128 data pages (512 KiB) per CPU. */
    public static final int DEFAULT_MMAP_PAGES = 128;
    /** perf's PERF_SYNTH_* bits ({@code --synth}): the tasks, their maps, the cgroups. */
    public static final int SYNTH_TASK = 1;
    public static final int SYNTH_MMAP = 2;
    public static final int SYNTH_CGROUP = 4;
    public static final int SYNTH_ALL = 7;
    /** perf's comp_level_max. */
    public static final int MAX_COMPRESSION_LEVEL = 22;

    /** Options with perf's defaults, set by name: {@code RecordOptions.builder().allCpus(true).build()}. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Builds {@link RecordOptions}; every option starts at perf's default (no target, default
     * event and frequency, {@link #DEFAULT_MMAP_PAGES}, {@code perf.data}, no duration, no
     * compression, the default build-id cache). {@link #build} checks them.
     */
    public static final class Builder {
        private boolean allCpus;
        private List<Integer> cpus = List.of();
        private List<Integer> pids = List.of();
        private List<Integer> tids = List.of();
        private List<String> command = List.of();
        private List<String> events = List.of();
        private int freq;
        private long period;
        private CallGraph callGraph = CallGraph.NONE;
        private int mmapPages = DEFAULT_MMAP_PAGES;
        private Path output = Path.of("perf.data");
        private Duration duration;
        private boolean quiet;
        private List<String> cmdline = List.of("jperf", "record");
        private int compressionLevel;
        private Path buildIdDir;
        private boolean noBuildId;
        private boolean noBuildIdCache;
        private boolean noInherit;
        private boolean allUser;
        private boolean allKernel;
        private boolean switchEvents;
        private boolean namespaces;
        private boolean offCpu;
        private boolean noSamples;
        private int delayMs;
        private boolean timestampFilename;
        private long userRegs;
        private boolean data;
        private boolean physData;
        private boolean weight;
        private boolean rawSamples;
        private boolean runningTime;
        private boolean noBpfEvent;
        private long maxSize;
        private boolean noBuffering;
        private boolean samplePeriod;
        private int defaultFreq = DEFAULT_FREQ;
        private boolean codePageSize;
        private boolean dataPageSize;
        private boolean kernelCallchains;
        private boolean userCallchains;
        private long intrRegs;
        private long branchStack;
        private boolean useClockid;
        private int clockid;
        private boolean group;
        private int synth = SYNTH_ALL;
        private boolean inheritStat;

        private Builder() {
        }

        public Builder allCpus(boolean v) {
            allCpus = v;
            return this;
        }

        public Builder cpus(List<Integer> v) {
            cpus = v;
            return this;
        }

        public Builder pids(List<Integer> v) {
            pids = v;
            return this;
        }

        public Builder tids(List<Integer> v) {
            tids = v;
            return this;
        }

        public Builder command(List<String> v) {
            command = v;
            return this;
        }

        public Builder events(List<String> v) {
            events = v;
            return this;
        }

        public Builder freq(int v) {
            freq = v;
            return this;
        }

        public Builder period(long v) {
            period = v;
            return this;
        }

        public Builder callGraph(CallGraph v) {
            callGraph = v;
            return this;
        }

        public Builder mmapPages(int v) {
            mmapPages = v;
            return this;
        }

        public Builder output(Path v) {
            output = v;
            return this;
        }

        public Builder duration(Duration v) {
            duration = v;
            return this;
        }

        public Builder quiet(boolean v) {
            quiet = v;
            return this;
        }

        public Builder cmdline(List<String> v) {
            cmdline = v;
            return this;
        }

        public Builder compressionLevel(int v) {
            compressionLevel = v;
            return this;
        }

        public Builder buildIdDir(Path v) {
            buildIdDir = v;
            return this;
        }

        public Builder noBuildId(boolean v) {
            noBuildId = v;
            return this;
        }

        public Builder noBuildIdCache(boolean v) {
            noBuildIdCache = v;
            return this;
        }

        public Builder noInherit(boolean v) {
            noInherit = v;
            return this;
        }

        public Builder allUser(boolean v) {
            allUser = v;
            return this;
        }

        public Builder allKernel(boolean v) {
            allKernel = v;
            return this;
        }

        public Builder switchEvents(boolean v) {
            switchEvents = v;
            return this;
        }

        public Builder namespaces(boolean v) {
            namespaces = v;
            return this;
        }

        public Builder noSamples(boolean v) {
            noSamples = v;
            return this;
        }

        public Builder delayMs(int v) {
            delayMs = v;
            return this;
        }

        public Builder timestampFilename(boolean v) {
            timestampFilename = v;
            return this;
        }

        public Builder userRegs(long v) {
            userRegs = v;
            return this;
        }

        public Builder offCpu(boolean v) {
            offCpu = v;
            return this;
        }

        public Builder data(boolean v) {
            data = v;
            return this;
        }

        public Builder physData(boolean v) {
            physData = v;
            return this;
        }

        public Builder weight(boolean v) {
            weight = v;
            return this;
        }

        public Builder rawSamples(boolean v) {
            rawSamples = v;
            return this;
        }

        public Builder runningTime(boolean v) {
            runningTime = v;
            return this;
        }

        public Builder noBpfEvent(boolean v) {
            noBpfEvent = v;
            return this;
        }

        public Builder noBuffering(boolean v) {
            noBuffering = v;
            return this;
        }

        public Builder maxSize(long v) {
            maxSize = v;
            return this;
        }

        public Builder samplePeriod(boolean v) {
            samplePeriod = v;
            return this;
        }

        public Builder defaultFreq(int v) {
            defaultFreq = v;
            return this;
        }

        public Builder codePageSize(boolean v) {
            codePageSize = v;
            return this;
        }

        public Builder dataPageSize(boolean v) {
            dataPageSize = v;
            return this;
        }

        public Builder kernelCallchains(boolean v) {
            kernelCallchains = v;
            return this;
        }

        public Builder userCallchains(boolean v) {
            userCallchains = v;
            return this;
        }

        public Builder intrRegs(long v) {
            intrRegs = v;
            return this;
        }

        public Builder branchStack(long v) {
            branchStack = v;
            return this;
        }

        /** {@code -k}: every event timed by this clock. */
        public Builder clockid(int v) {
            useClockid = true;
            clockid = v;
            return this;
        }

        public Builder group(boolean v) {
            group = v;
            return this;
        }

        public Builder synth(int v) {
            synth = v;
            return this;
        }

        public Builder inheritStat(boolean v) {
            inheritStat = v;
            return this;
        }

        /** The options; IllegalArgumentException names the first that is wrong. */
        public RecordOptions build() {
            return new RecordOptions(allCpus, cpus, pids, tids, command, events, freq, period, callGraph, mmapPages,
                    output, duration, quiet, cmdline, compressionLevel, buildIdDir, noBuildId, noBuildIdCache, noInherit,
                    allUser, allKernel, switchEvents, namespaces, noSamples, delayMs,
                    timestampFilename, userRegs, offCpu, data, physData, weight, rawSamples, runningTime, noBpfEvent,
                    noBuffering, maxSize, samplePeriod, defaultFreq, codePageSize, dataPageSize, kernelCallchains,
                    userCallchains, intrRegs, branchStack, useClockid, clockid,
                    group, synth, inheritStat);
        }
    }

    public RecordOptions {
        cpus = List.copyOf(cpus);
        pids = List.copyOf(pids);
        tids = List.copyOf(tids);
        command = List.copyOf(command);
        events = List.copyOf(events);
        if (callGraph == null) {
            callGraph = CallGraph.NONE;
        }
        cmdline = List.copyOf(cmdline);
        if (freq < 0 || period < 0) {
            throw new IllegalArgumentException("sample frequency and period must be positive");
        }
        if (defaultFreq <= 0) {
            throw new IllegalArgumentException("the default frequency must be positive");
        }
        if (freq > 0 && period > 0) {
            throw new IllegalArgumentException("-F and -c are mutually exclusive");
        }
        if (compressionLevel < 0 || compressionLevel > MAX_COMPRESSION_LEVEL) {
            throw new IllegalArgumentException("--compression-level " + compressionLevel + " is outside 1.."
                    + MAX_COMPRESSION_LEVEL);
        }
        if (delayMs < -1) {
            throw new IllegalArgumentException("--delay " + delayMs + ": give milliseconds, or -1 to start disabled");
        }
        if (allUser && allKernel) {
            throw new IllegalArgumentException("--all-user and --all-kernel are mutually exclusive");
        }
        if (mmapPages <= 0 || Integer.bitCount(mmapPages) != 1) {
            throw new IllegalArgumentException("--mmap-pages " + mmapPages + " is not a power of two");
        }
        int targets = (allCpus || !cpus.isEmpty() ? 1 : 0) + (pids.isEmpty() ? 0 : 1) + (tids.isEmpty() ? 0 : 1);
        if (targets > 1) {
            throw new IllegalArgumentException("choose one target: -a/-C, -p or -t");
        }
        if (targets == 0 && command.isEmpty()) {
            throw new IllegalArgumentException("nothing to record: give -a, -C, -p, -t or a command");
        }
    }

    /** {@code -o -}: perf's pipe mode, the stream on stdout. */
    public boolean pipeOutput() {
        return output.toString().equals("-");
    }

    /**
     * perf's sample_address: {@code -d}, or turned on by {@code --call-graph dwarf}
     * (record_opts__parse_callchain); the tracking event asks for data mmaps and they are synthesized.
     */
    public boolean sampleAddress() {
        return data || callGraph.mmapData();
    }

    /** The sample_type bits the sample options add to every event, the tracking event too (perf's evsel__config). */
    long optionSampleType() {
        return (data ? PerfEventAttr.PERF_SAMPLE_ADDR | PerfEventAttr.PERF_SAMPLE_DATA_SRC : 0)
                | (physData ? PerfEventAttr.PERF_SAMPLE_PHYS_ADDR : 0)
                | (weight ? PerfEventAttr.PERF_SAMPLE_WEIGHT_STRUCT : 0)
                | (rawSamples ? PerfEventAttr.PERF_SAMPLE_RAW : 0)
                | (codePageSize ? PerfEventAttr.PERF_SAMPLE_CODE_PAGE_SIZE : 0)
                | (dataPageSize ? PerfEventAttr.PERF_SAMPLE_DATA_PAGE_SIZE : 0);
    }

    /**
     * The attr flags every event with callchains gets from {@code --kernel-callchains} and
     * {@code --user-callchains} (perf's __evsel__config_callchain), the tracking dummy too.
     */
    long callchainFlags() {
        if (!callGraph.enabled()) {
            return 0;
        }
        return (kernelCallchains ? PerfEventAttr.FLAG_EXCLUDE_CALLCHAIN_USER : 0)
                | (userCallchains ? PerfEventAttr.FLAG_EXCLUDE_CALLCHAIN_KERNEL : 0);
    }

    /** The read_format bits {@code --running-time} and {@code --stat} add to every event. */
    long optionReadFormat() {
        return runningTime || inheritStat
                ? PerfEventAttr.PERF_FORMAT_TOTAL_TIME_ENABLED | PerfEventAttr.PERF_FORMAT_TOTAL_TIME_RUNNING : 0;
    }

    /**
     * The attr flags the options add to every event: {@code --stat}'s inherit_stat, and with
     * callchains {@link #callchainFlags()}.
     */
    long optionFlags() {
        return (inheritStat ? PerfEventAttr.FLAG_INHERIT_STAT : 0) | callchainFlags();
    }

    /** The sampling frequency: {@code -F}'s, else the default (0 with {@code -c}). */
    public int sampleFreq() {
        return period > 0 ? 0 : freq > 0 ? freq : defaultFreq;
    }

    /**
     * Whether {@code -F} or {@code -c} was given: perf's evsel__config then sets them on every
     * event, the tracking dummy too (its user_freq/user_interval).
     */
    public boolean userRate() {
        return freq > 0 || period > 0;
    }

    /**
     * perf's parse_synth_opt: comma-separated {@code no}/{@code none} (nothing, at once),
     * {@code all} (everything, at once), {@code task}, {@code mmap} (tasks and their maps),
     * {@code cgroup}; -1 for anything else.
     */
    public static int parseSynth(String list) {
        int ret = 0;
        for (String p : list.split(",", -1)) {
            if (p.equalsIgnoreCase("no") || p.equalsIgnoreCase("none")) {
                return 0;
            }
            if (p.equalsIgnoreCase("all")) {
                return SYNTH_ALL;
            }
            if (p.equalsIgnoreCase("task")) {
                ret |= SYNTH_TASK;
            } else if (p.equalsIgnoreCase("mmap")) {
                ret |= SYNTH_TASK | SYNTH_MMAP;
            } else if (p.equalsIgnoreCase("cgroup")) {
                ret |= SYNTH_CGROUP;
            } else {
                return -1;
            }
        }
        return ret;
    }

    /** Whether events are per CPU for every task (no task target). */
    public boolean systemWide() {
        return allCpus || !cpus.isEmpty();
    }
}
