package dev.jperf.recorder;

import dev.jperf.format.io.ProcFs;
import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.feature.BpfBtfs;
import dev.jperf.format.feature.BpfProgInfos;
import dev.jperf.format.feature.Cmdline;
import dev.jperf.format.feature.CpuTopology;
import dev.jperf.format.feature.EventDescs;
import dev.jperf.format.feature.Feature;
import dev.jperf.format.feature.FeatureSection;
import dev.jperf.format.feature.NrCpus;
import dev.jperf.format.feature.PmuMappings;
import dev.jperf.format.feature.StringFeature;
import dev.jperf.format.feature.TotalMem;
import dev.jperf.format.header.CpuList;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.writer.PerfDataOutput;
import dev.jperf.format.writer.PerfDataWriter;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The feature sections a recording writes (perf-data-format.md §11-12): the machine's description
 * (read once at start from /proc and /sys, as perf reads it) and the events; SAMPLE_TIME and the
 * BPF sections are refreshed as the recording goes. A value that cannot be read is left out,
 * never guessed.
 */
final class HeaderFeatures {
    static final String VERSION = "jperf 0.1.0";
    private static Map<String, String> cpuinfo;

    private HeaderFeatures() {}

    /**
     * Sets every section known at start on {@code writer}. Like the rest of a recording's start,
     * written without lambdas, streams or Optional chains: each invokedynamic call site costs its
     * bootstrap (and the method-handle code compiled for it) on its one run (bench/README.md).
     */
    static void setStatic(PerfDataOutput writer, List<PerfEvents.Evsel> evsels, List<String> cmdline) {
        List<FeatureSection> s = new ArrayList<>();
        String hostname = read("/proc/sys/kernel/hostname");
        if (hostname != null) {
            s.add(new StringFeature(Feature.HOSTNAME, hostname));
        }
        String osrelease = read("/proc/sys/kernel/osrelease");
        if (osrelease != null) {
            s.add(new StringFeature(Feature.OSRELEASE, osrelease));
        }
        s.add(new StringFeature(Feature.VERSION, VERSION));
        s.add(new StringFeature(Feature.ARCH, arch()));
        List<Integer> online = Cpus.online();
        int avail = online.size();
        String present = read("/sys/devices/system/cpu/present");
        if (present != null) {
            List<Integer> l = CpuList.parse(present);
            if (!l.isEmpty()) {
                avail = l.get(l.size() - 1) + 1;
            }
        }
        s.add(new NrCpus(avail, online.size()));
        Map<String, String> cpuinfo = cpuinfo();
        if (cpuinfo.containsKey("model name")) {
            s.add(new StringFeature(Feature.CPUDESC, collapseBlanks(cpuinfo.get("model name"))));
        }
        if (cpuinfo.containsKey("vendor_id")) {
            s.add(new StringFeature(Feature.CPUID, cpuinfo.get("vendor_id") + "," + cpuinfo.getOrDefault("cpu family", "0")
                    + "," + cpuinfo.getOrDefault("model", "0") + "," + cpuinfo.getOrDefault("stepping", "0")));
        }
        long memKb = memTotalKb();
        if (memKb >= 0) {
            s.add(new TotalMem(memKb));
        }
        s.add(new Cmdline(cmdline));
        List<EventDescs.Event> evs = new ArrayList<>();
        for (PerfEvents.Evsel e : evsels) {
            evs.add(new EventDescs.Event(PerfDataWriter.normaliseAttr(e.attr()), e.name(), e.idArray()));
        }
        s.add(new EventDescs(PerfEventAttr.PERF_ATTR_SIZE_VER7, evs));
        addIfPresent(s, topology(avail));
        addIfPresent(s, pmuMappings());
        SysfsFeatures sysfs = new SysfsFeatures(Path.of("/sys"));
        addIfPresent(s, sysfs.numaTopology());
        addIfPresent(s, sysfs.cache());
        addIfPresent(s, sysfs.memTopology());
        addIfPresent(s, sysfs.pmuCaps());
        for (FeatureSection f : s) {
            writer.setFeature(f.bit(), f.encode());
        }
    }

    private static void addIfPresent(List<FeatureSection> s, Optional<? extends FeatureSection> f) {
        if (f.isPresent()) {
            s.add(f.get());
        }
    }

    /** Every run of white space as one blank ({@code replaceAll("\\s+", " ")} without a regex). */
    static String collapseBlanks(String v) {
        StringBuilder b = new StringBuilder(v.length());
        boolean blank = false;
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r') {
                blank = true;
                continue;
            }
            if (blank) {
                b.append(' ');
            }
            blank = false;
            b.append(c);
        }
        if (blank) {
            b.append(' ');
        }
        return b.toString();
    }

    /** BPF_PROG_INFO and BPF_BTF from what was captured, ordered by id. */
    static void setBpf(PerfDataOutput writer, Map<Integer, BpfProgInfo> programs, Map<Integer, byte[]> btfs) {
        writer.setFeature(Feature.BPF_PROG_INFO.bit(), new BpfProgInfos(new ArrayList<>(programs.values())).encode());
        List<BpfBtfs.BtfBlob> blobs = new ArrayList<>();
        for (Map.Entry<Integer, byte[]> e : btfs.entrySet()) {
            blobs.add(new BpfBtfs.BtfBlob(e.getKey(), e.getValue()));
        }
        writer.setFeature(Feature.BPF_BTF.bit(), new BpfBtfs(blobs).encode());
    }

    private static String arch() {
        String a = read("/proc/sys/kernel/arch");
        if (a != null) {
            return a;
        }
        a = System.getProperty("os.arch");
        return a.equals("amd64") ? "x86_64" : a;
    }

    /** The file's text, stripped; null if it cannot be read. */
    private static String read(String path) {
        try {
            return ProcFs.readText(Path.of(path));
        } catch (IOException e) {
            return null;
        }
    }

    /** The first CPU's fields of /proc/cpuinfo: the default event and the header both ask, it is read once. */
    static synchronized Map<String, String> cpuinfo() {
        if (cpuinfo == null) {
            cpuinfo = Map.copyOf(readCpuinfo());
        }
        return cpuinfo;
    }

    private static Map<String, String> readCpuinfo() {
        Map<String, String> m = new HashMap<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.isBlank() && !m.isEmpty()) {
                    break;
                }
                int c = line.indexOf(':');
                if (c > 0) {
                    m.putIfAbsent(line.substring(0, c).strip(), line.substring(c + 1).strip());
                }
            }
        } catch (IOException e) {
            return m;
        }
        return m;
    }

    /** MemTotal of /proc/meminfo in kB, -1 if unknown. */
    private static long memTotalKb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    String v = line.substring("MemTotal:".length()).strip();
                    int sp = v.indexOf(' ');
                    return Long.parseLong(sp < 0 ? v : v.substring(0, sp));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    /** CPU_TOPOLOGY from /sys/devices/system/cpu/cpuN/topology, as perf builds it (with dies). */
    private static Optional<CpuTopology> topology(int avail) {
        LinkedHashSet<String> cores = new LinkedHashSet<>();
        LinkedHashSet<String> threads = new LinkedHashSet<>();
        LinkedHashSet<String> dies = new LinkedHashSet<>();
        List<CpuTopology.CpuId> ids = new ArrayList<>();
        for (int cpu = 0; cpu < avail; cpu++) {
            String t = "/sys/devices/system/cpu/cpu" + cpu + "/topology/";
            String core = readEither(t + "core_siblings_list", t + "package_cpus_list");
            String thread = readEither(t + "thread_siblings_list", t + "core_cpus_list");
            String die = read(t + "die_cpus_list");
            if (core != null) {
                cores.add(core);
            }
            if (thread != null) {
                threads.add(thread);
            }
            if (die != null) {
                dies.add(die);
            }
            ids.add(Cpus.id(cpu));
        }
        if (cores.isEmpty() || threads.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new CpuTopology(new ArrayList<>(cores), new ArrayList<>(threads), ids,
                !dies.isEmpty(), new ArrayList<>(dies)));
    }

    private static String readEither(String path, String fallback) {
        String v = read(path);
        return v != null ? v : read(fallback);
    }

    /** PMU_MAPPINGS: every /sys/bus/event_source/devices/NAME/type, in directory order as perf lists them. */
    private static Optional<PmuMappings> pmuMappings() {
        List<PmuMappings.Pmu> pmus = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Path.of("/sys/bus/event_source/devices"))) {
            for (Path p : ds) {
                String t = read(p.resolve("type").toString());
                if (t == null) {
                    continue;
                }
                try {
                    pmus.add(new PmuMappings.Pmu(Integer.parseInt(t), p.getFileName().toString()));
                } catch (NumberFormatException e) {
                    // not a PMU directory
                }
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return pmus.isEmpty() ? Optional.empty() : Optional.of(new PmuMappings(pmus));
    }
}
