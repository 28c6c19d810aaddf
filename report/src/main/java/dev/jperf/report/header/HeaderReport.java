package dev.jperf.report.header;

import dev.jperf.format.PerfDataException;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.feature.BpfBtfs;
import dev.jperf.format.feature.BpfProgInfos;
import dev.jperf.format.feature.CacheTopology;
import dev.jperf.format.feature.ClockData;
import dev.jperf.format.feature.ClockIds;
import dev.jperf.format.feature.Compression;
import dev.jperf.format.feature.CpuTopology;
import dev.jperf.format.feature.EventDescs;
import dev.jperf.format.feature.Feature;
import dev.jperf.format.feature.FeatureSection;
import dev.jperf.format.feature.Features;
import dev.jperf.format.feature.GroupDescs;
import dev.jperf.format.feature.HybridTopology;
import dev.jperf.format.feature.MemTopology;
import dev.jperf.format.feature.NrCpus;
import dev.jperf.format.feature.NumaTopology;
import dev.jperf.format.feature.PmuCap;
import dev.jperf.format.feature.PmuCaps;
import dev.jperf.format.feature.PmuMappings;
import dev.jperf.format.feature.RawFeature;
import dev.jperf.format.feature.SampleTime;
import dev.jperf.format.feature.StringFeature;
import dev.jperf.format.header.FileHeader;
import dev.jperf.format.header.PerfEventAttr;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * {@code perf report --header-only [-I]}: the file header and every feature section, printed as
 * perf 6.1 prints them (perf_header__fprintf_info and the print_* functions of util/header.c).
 *
 * <p>Differences from perf, on purpose: a feature whose body is damaged prints nothing (perf
 * prints whatever its half-filled state holds and stops processing the features after it); the
 * damage is reported in the file's warnings instead.
 */
public final class HeaderReport {
    /** Features perf prints only with -I; without it, "# X info available, use -I to display". */
    static final Set<Feature> FULL_ONLY = EnumSet.of(Feature.CPU_TOPOLOGY, Feature.NUMA_TOPOLOGY, Feature.CACHE,
            Feature.MEM_TOPOLOGY, Feature.HYBRID_TOPOLOGY);
    // fixed English names as ctime(3) prints them; java.time's locale data is slow to load
    private static final String[] DAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    private static final String[] MONTHS = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
        "Nov", "Dec"};

    private static final Map<Feature, String> STRING_LABELS = Map.of(Feature.HOSTNAME, "hostname",
            Feature.OSRELEASE, "os release", Feature.VERSION, "perf version", Feature.ARCH, "arch",
            Feature.CPUDESC, "cpudesc", Feature.CPUID, "cpuid");

    private final PerfDataFile file;
    private final Features features;
    private final boolean full;
    private final ZoneId zone;
    private final StringBuilder out = new StringBuilder();

    private HeaderReport(PerfDataFile file, boolean full, ZoneId zone) {
        this.file = file;
        this.features = file.features();
        this.full = full;
        this.zone = zone;
    }

    /**
     * {@code jperf report --header-only [-I]}: prints the header report of an opened file to
     * {@code out}. "captured on" is the file's modification time (now for a stream), as perf
     * takes it from fstat.
     */
    public static void print(PerfDataFile file, boolean full, PrintStream out) {
        Instant mtime = Instant.now();
        Path p = Path.of(file.name());
        if (Files.isRegularFile(p)) {
            try {
                mtime = Files.getLastModifiedTime(p).toInstant();
            } catch (IOException e) {
                // keep "now": the time line is informative only
            }
        }
        out.print(render(file, mtime, full, ZoneId.systemDefault()));
        out.flush();
    }

    /**
     * The header report of {@code file}. {@code capturedOn} is the file's modification time (what
     * perf prints as "captured on"), {@code full} is -I, {@code zone} the zone for local times.
     */
    public static String render(PerfDataFile file, Instant capturedOn, boolean full, ZoneId zone) {
        return new HeaderReport(file, full, zone).build(capturedOn);
    }

    private String build(Instant capturedOn) {
        FileHeader h = file.header();
        line("# ========");
        line("# captured on    : " + ctime(LocalDateTime.ofInstant(capturedOn, zone)));
        line("# header version : 1");
        long dataOff = h.pipe() ? 0 : h.data().offset();
        long dataSize = h.pipe() ? 0 : h.data().size();
        line("# data offset    : " + Long.toUnsignedString(dataOff));
        line("# data size      : " + Long.toUnsignedString(dataSize));
        line("# feat offset    : " + Long.toUnsignedString(h.pipe() ? 0 : dataOff + dataSize));
        if (h.pipe()) {
            // perf prints pipe-mode features while it processes the HEADER_FEATURE records, after the header block
            line("# ========");
            line("#");
            file.featureBits().forEach(this::feature);
            return out.toString();
        }
        for (int bit : h.featureBits()) {
            feature(bit);
        }
        StringBuilder missing = new StringBuilder("# missing features: ");
        for (int bit = 1; bit < Feature.PERF_6_1_LAST_FEATURE; bit++) {
            if (!h.hasFeature(bit)) {
                missing.append(Feature.name(bit)).append(' ');
            }
        }
        line(missing.toString());
        line("# ========");
        line("#");
        return out.toString();
    }

    private void line(String s) {
        out.append(s).append('\n');
    }

    private void feature(int bit) {
        Feature f = Feature.of(bit);
        if (f == null || bit >= Feature.PERF_6_1_LAST_FEATURE) {
            return; // perf 6.1: "unknown feature" on stderr, nothing printed
        }
        FeatureSection s = features.get(bit).orElse(null);
        if (s instanceof RawFeature r && r.problem() != null && StringFeature.KINDS.contains(f)) {
            s = null;
            line("# " + STRING_LABELS.get(f) + " : (null)"); // as perf prints a string it failed to read
            return;
        }
        if (s == null || s instanceof RawFeature r && r.problem() != null) {
            return; // unusable body: the warning says why
        }
        if (FULL_ONLY.contains(f) && !full) {
            line("# " + f.name() + " info available, use -I to display");
            return;
        }
        switch (f) {
            case HOSTNAME -> line("# hostname : " + features.hostname().orElse(""));
            case OSRELEASE -> line("# os release : " + features.osRelease().orElse(""));
            case VERSION -> line("# perf version : " + features.version().orElse(""));
            case ARCH -> line("# arch : " + features.arch().orElse(""));
            case NRCPUS -> {
                NrCpus n = (NrCpus) s;
                line("# nrcpus online : " + Integer.toUnsignedString(n.online()));
                line("# nrcpus avail : " + Integer.toUnsignedString(n.available()));
            }
            case CPUDESC -> line("# cpudesc : " + features.cpuDesc().orElse(""));
            case CPUID -> line("# cpuid : " + features.cpuId().orElse(""));
            case TOTAL_MEM -> line("# total memory : " + Long.toUnsignedString(features.totalMem().orElseThrow().kilobytes()) + " kB");
            case CMDLINE -> {
                StringBuilder sb = new StringBuilder("# cmdline : ");
                for (String a : features.cmdline().orElseThrow().argv()) {
                    sb.append(a.replace("'", "\\'")).append(' ');
                }
                line(sb.toString());
            }
            case EVENT_DESC -> eventDesc((EventDescs) s);
            case CPU_TOPOLOGY -> cpuTopology((CpuTopology) s);
            case NUMA_TOPOLOGY -> {
                for (NumaTopology.Node n : ((NumaTopology) s).nodes()) {
                    String node = Integer.toUnsignedString(n.node());
                    line("# node" + node + " meminfo  : total = " + Long.toUnsignedString(n.memTotal()) + " kB, free = "
                            + Long.toUnsignedString(n.memFree()) + " kB");
                    line("# node" + node + " cpu list : " + CpuMaps.normalize(n.cpus()));
                }
            }
            case BRANCH_STACK -> line("# contains samples with branch stack");
            case PMU_MAPPINGS -> {
                List<PmuMappings.Pmu> pmus = ((PmuMappings) s).pmus();
                line(pmus.isEmpty() ? "# pmu mappings: not available" : "# pmu mappings: " + pmus.stream()
                        .map(p -> p.name() + " = " + Integer.toUnsignedString(p.type())).collect(Collectors.joining(", ")));
            }
            case GROUP_DESC -> groupDesc((GroupDescs) s);
            case AUXTRACE -> line("# contains AUX area data (e.g. instruction trace)");
            case STAT -> line("# contains stat data");
            case CACHE -> {
                line("# CPU cache info:");
                for (CacheTopology.Level c : ((CacheTopology) s).levels()) {
                    line("#  L" + Integer.toUnsignedString(c.level()) + " " + padRight(c.type(), 15) + " "
                            + padLeft(c.size(), 8) + " [" + c.map() + "]");
                }
            }
            case SAMPLE_TIME -> {
                SampleTime t = (SampleTime) s;
                line("# time of first sample : " + usec(t.first()));
                line("# time of last sample : " + usec(t.last()));
                double ms = (double) (t.last() - t.first()) / 1_000_000;
                // %10.3f: round the exact binary value half-even, as printf does
                line("# sample duration : " + padLeft(new BigDecimal(ms).setScale(3, RoundingMode.HALF_EVEN).toPlainString(), 10) + " ms");
            }
            case MEM_TOPOLOGY -> {
                MemTopology m = (MemTopology) s;
                line("# memory nodes (nr " + m.nodes().size() + ", block size 0x" + Long.toHexString(m.blockSize()) + "):");
                for (MemTopology.Node n : m.nodes()) {
                    long[] words = n.bitmap();
                    String size = CpuMaps.unitNumber(m.blockSize() * CpuMaps.weight(words, n.size()));
                    String map = CpuMaps.bitmap(words, n.size());
                    // perf prints the map into a 100-byte buffer
                    line("#  " + padLeft(Long.toUnsignedString(n.node()), 3) + " [" + size + "]: "
                            + (map.length() > 99 ? map.substring(0, 99) : map));
                }
            }
            case CLOCKID -> line("# clockid frequency: " + Long.toUnsignedString(features.clockId().orElseThrow().resolutionNs() * 1000) + " MHz");
            case DIR_FORMAT -> line("# directory data version : " + Long.toUnsignedString(features.dirFormat().orElseThrow().version()));
            case BPF_PROG_INFO -> bpfProgInfo((BpfProgInfos) s);
            case BPF_BTF -> {
                TreeMap<Long, BpfBtfs.BtfBlob> byId = new TreeMap<>();
                ((BpfBtfs) s).blobs().forEach(b -> byId.putIfAbsent(Integer.toUnsignedLong(b.id()), b));
                byId.keySet().forEach(id -> line("# btf info of id " + id));
            }
            case COMPRESSED -> {
                Compression c = (Compression) s;
                line("# compressed : " + (c.type() == Compression.ZSTD ? "Zstd" : "Unknown") + ", level = " + c.level()
                        + ", ratio = " + c.ratio());
            }
            case CPU_PMU_CAPS -> pmuCaps("cpu", features.cpuPmuCaps().orElseThrow().caps());
            case CLOCK_DATA -> clockData((ClockData) s);
            case HYBRID_TOPOLOGY -> {
                line("# hybrid cpu system:");
                for (HybridTopology.Node n : ((HybridTopology) s).nodes()) {
                    line("# " + n.pmuName() + " cpu list : " + n.cpus());
                }
            }
            case PMU_CAPS -> ((PmuCaps) s).pmus().forEach(p -> pmuCaps(p.name(), p.caps()));
            default -> {
                // TRACING_DATA and BUILD_ID have no print function in perf
            }
        }
    }

    private void eventDesc(EventDescs d) {
        for (EventDescs.Event e : d.events()) {
            StringBuilder sb = new StringBuilder("# event : name = ").append(e.name()).append(", ");
            long[] ids = e.ids();
            if (ids.length > 0) {
                sb.append(", id = {");
                for (int j = 0; j < ids.length; j++) {
                    sb.append(j > 0 ? ", " : " ").append(Long.toUnsignedString(ids[j]));
                }
                sb.append(" }");
            }
            try {
                PerfEventAttr attr = e.perfEventAttr(file.header().order());
                sb.append(AttrFormat.format(attr, AttrFormat.ownSize(file, attr)));
            } catch (PerfDataException ex) {
                // an attr we cannot decode: the name and ids are still worth printing
            }
            line(sb.toString());
        }
    }

    private void cpuTopology(CpuTopology t) {
        t.coreSiblings().forEach(c -> line("# sibling sockets : " + c));
        boolean dies = t.hasDies() && !t.dieSiblings().isEmpty();
        if (dies) {
            t.dieSiblings().forEach(d -> line("# sibling dies    : " + d));
        }
        t.threadSiblings().forEach(c -> line("# sibling threads : " + c));
        if (t.cpus().isEmpty()) {
            line(dies ? "# Core ID, Die ID and Socket ID information is not available"
                    : "# Core ID and Socket ID information is not available");
            return;
        }
        for (int i = 0; i < t.cpus().size(); i++) {
            CpuTopology.CpuId c = t.cpus().get(i);
            line(dies ? "# CPU " + i + ": Core ID " + c.coreId() + ", Die ID " + c.dieId() + ", Socket ID " + c.socketId()
                    : "# CPU " + i + ": Core ID " + c.coreId() + ", Socket ID " + c.socketId());
        }
    }

    /** perf's print_group_desc: walks the events; a leader with members opens "{", its last member closes it. */
    private void groupDesc(GroupDescs g) {
        List<String> names = eventNames();
        Map<Integer, GroupDescs.Group> byLeader = new TreeMap<>();
        g.groups().forEach(d -> byLeader.putIfAbsent(d.leaderIdx(), d));
        StringBuilder sb = null;
        int left = 0;
        for (int i = 0; i < names.size(); i++) {
            GroupDescs.Group d = byLeader.get(i);
            if (d != null && Integer.toUnsignedLong(d.nrMembers()) > 1) {
                String gname = GroupDescs.ANON_GROUP.equals(d.name()) ? "" : d.name();
                sb = new StringBuilder("# group: ").append(gname).append('{').append(names.get(i));
                left = d.nrMembers() - 1;
            } else if (left > 0) {
                sb.append(',').append(names.get(i));
                if (--left == 0) {
                    line(sb.append('}').toString());
                }
            }
        }
    }

    private List<String> eventNames() {
        List<String> names = new ArrayList<>();
        features.eventDesc().ifPresentOrElse(d -> d.events().forEach(e -> names.add(e.name())),
                () -> file.events().forEach(e -> names.add(e.name())));
        return names;
    }

    private void bpfProgInfo(BpfProgInfos infos) {
        TreeMap<Long, BpfProgInfo> byId = new TreeMap<>();
        infos.programs().forEach(p -> byId.putIfAbsent(Integer.toUnsignedLong(p.id()), p));
        for (BpfProgInfo p : byId.values()) {
            int n = p.subprogCount();
            if (n == 0) {
                continue; // perf skips programs whose ksyms/tags/lens counts disagree
            }
            Btf btf = p.btfId() == 0 ? null : features.btf(p.btfId()).orElse(null);
            long[] addrs = p.jitedKsyms();
            int[] lens = p.jitedFuncLens();
            String id = Integer.toUnsignedString(p.id());
            if (n == 1) {
                line("# bpf_prog_info " + id + ": " + p.perfName(0, btf) + " addr 0x" + Long.toHexString(addrs[0])
                        + " size " + Integer.toUnsignedString(lens[0]));
                continue;
            }
            line("# bpf_prog_info " + id + ":");
            for (int i = 0; i < n; i++) {
                line("# \tsub_prog " + i + ": " + p.perfName(i, btf) + " addr 0x" + Long.toHexString(addrs[i])
                        + " size " + Integer.toUnsignedString(lens[i]));
            }
        }
    }

    private void pmuCaps(String pmu, List<PmuCap> caps) {
        line(caps.isEmpty() ? "# " + pmu + " pmu capabilities: not available"
                : "# " + pmu + " pmu capabilities: " + caps.stream().map(PmuCap::toString).collect(Collectors.joining(", ")));
    }

    private void clockData(ClockData c) {
        String name = clockidName(c.clockid());
        long todSec = Long.divideUnsigned(c.todNs(), 1_000_000_000L);
        long todUsec = Long.remainderUnsigned(c.todNs(), 1_000_000_000L) / 1000;
        long clkSec = Long.divideUnsigned(c.clockidNs(), 1_000_000_000L);
        long clkNsec = Long.remainderUnsigned(c.clockidNs(), 1_000_000_000L);
        LocalDateTime t = LocalDateTime.ofInstant(Instant.ofEpochSecond(todSec), zone);
        String date = t.getYear() + "-" + zeros(t.getMonthValue(), 2) + "-" + zeros(t.getDayOfMonth(), 2) + " "
                + zeros(t.getHour(), 2) + ":" + zeros(t.getMinute(), 2) + ":" + zeros(t.getSecond(), 2);
        line("# clockid: " + name + " (" + Integer.toUnsignedString(c.clockid()) + ")");
        line("# reference time: " + date + "." + zeros(todUsec, 6) + " = " + todSec + "." + zeros(todUsec, 6) + " (TOD) = "
                + clkSec + "." + zeros(clkNsec, 9) + " (" + name + ")");
    }

    /** perf's clockid_name (util/clockid.c): the first name of its table for the id. */
    static String clockidName(int clockid) {
        return ClockIds.name(clockid);
    }

    /** timestamp__scnprintf_usec: seconds.microseconds. */
    private static String usec(long ns) {
        return Long.toUnsignedString(Long.divideUnsigned(ns, 1_000_000_000L)) + "."
                + zeros(Long.remainderUnsigned(ns, 1_000_000_000L) / 1000, 6);
    }

    /** ctime(3) without the newline: "Sun Nov 22 10:49:29 2026" (day of month padded with a space). */
    static String ctime(LocalDateTime t) {
        return DAYS[t.getDayOfWeek().getValue() - 1] + " " + MONTHS[t.getMonthValue() - 1] + " "
                + padLeft(Integer.toString(t.getDayOfMonth()), 2) + " " + zeros(t.getHour(), 2) + ":"
                + zeros(t.getMinute(), 2) + ":" + zeros(t.getSecond(), 2) + " " + t.getYear();
    }

    private static String zeros(long v, int width) {
        return padLeft(Long.toString(v), width).replace(' ', '0');
    }

    private static String padLeft(String s, int width) {
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }

    private static String padRight(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}
