package dev.jperf.recorder;

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

    /** Sets every section known at start on {@code writer}. */
    static void setStatic(PerfDataOutput writer, List<PerfEvents.Evsel> evsels, List<String> cmdline) {
        List<FeatureSection> s = new ArrayList<>();
        read("/proc/sys/kernel/hostname").ifPresent(h -> s.add(new StringFeature(Feature.HOSTNAME, h)));
        read("/proc/sys/kernel/osrelease").ifPresent(r -> s.add(new StringFeature(Feature.OSRELEASE, r)));
        s.add(new StringFeature(Feature.VERSION, VERSION));
        s.add(new StringFeature(Feature.ARCH, arch()));
        List<Integer> online = Cpus.online();
        int avail = read("/sys/devices/system/cpu/present").map(p -> {
            List<Integer> l = CpuList.parse(p);
            return l.isEmpty() ? online.size() : l.get(l.size() - 1) + 1;
        }).orElse(online.size());
        s.add(new NrCpus(avail, online.size()));
        Map<String, String> cpuinfo = cpuinfo();
        if (cpuinfo.containsKey("model name")) {
            s.add(new StringFeature(Feature.CPUDESC, cpuinfo.get("model name").replaceAll("\\s+", " ")));
        }
        if (cpuinfo.containsKey("vendor_id")) {
            s.add(new StringFeature(Feature.CPUID, cpuinfo.get("vendor_id") + "," + cpuinfo.getOrDefault("cpu family", "0")
                    + "," + cpuinfo.getOrDefault("model", "0") + "," + cpuinfo.getOrDefault("stepping", "0")));
        }
        memTotalKb().ifPresent(kb -> s.add(new TotalMem(kb)));
        s.add(new Cmdline(cmdline));
        List<EventDescs.Event> evs = new ArrayList<>();
        for (PerfEvents.Evsel e : evsels) {
            evs.add(new EventDescs.Event(PerfDataWriter.normaliseAttr(e.attr()), e.name(),
                    e.ids().stream().mapToLong(Long::longValue).toArray()));
        }
        s.add(new EventDescs(PerfDataWriter.PERF_ATTR_SIZE_VER7, evs));
        topology(avail).ifPresent(s::add);
        pmuMappings().ifPresent(s::add);
        SysfsFeatures sysfs = new SysfsFeatures(Path.of("/sys"));
        sysfs.numaTopology().ifPresent(s::add);
        sysfs.cache().ifPresent(s::add);
        sysfs.memTopology().ifPresent(s::add);
        sysfs.pmuCaps().ifPresent(s::add);
        for (FeatureSection f : s) {
            writer.setFeature(f.bit(), f.encode());
        }
    }

    /** BPF_PROG_INFO and BPF_BTF from what was captured, ordered by id. */
    static void setBpf(PerfDataOutput writer, Map<Integer, BpfProgInfo> programs, Map<Integer, byte[]> btfs) {
        writer.setFeature(Feature.BPF_PROG_INFO.bit(), new BpfProgInfos(new ArrayList<>(programs.values())).encode());
        List<BpfBtfs.BtfBlob> blobs = new ArrayList<>();
        btfs.forEach((id, data) -> blobs.add(new BpfBtfs.BtfBlob(id, data)));
        writer.setFeature(Feature.BPF_BTF.bit(), new BpfBtfs(blobs).encode());
    }

    private static String arch() {
        return read("/proc/sys/kernel/arch").orElseGet(() -> {
            String a = System.getProperty("os.arch");
            return a.equals("amd64") ? "x86_64" : a;
        });
    }

    private static Optional<String> read(String path) {
        try {
            return Optional.of(Files.readString(Path.of(path)).strip());
        } catch (IOException e) {
            return Optional.empty();
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

    private static Optional<Long> memTotalKb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Optional.of(Long.parseLong(line.replaceAll("[^0-9]", "")));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** CPU_TOPOLOGY from /sys/devices/system/cpu/cpuN/topology, as perf builds it (with dies). */
    private static Optional<CpuTopology> topology(int avail) {
        LinkedHashSet<String> cores = new LinkedHashSet<>();
        LinkedHashSet<String> threads = new LinkedHashSet<>();
        LinkedHashSet<String> dies = new LinkedHashSet<>();
        List<CpuTopology.CpuId> ids = new ArrayList<>();
        for (int cpu = 0; cpu < avail; cpu++) {
            String t = "/sys/devices/system/cpu/cpu" + cpu + "/topology/";
            Optional<String> core = read(t + "core_siblings_list").or(() -> read(t + "package_cpus_list"));
            Optional<String> thread = read(t + "thread_siblings_list").or(() -> read(t + "core_cpus_list"));
            core.ifPresent(cores::add);
            thread.ifPresent(threads::add);
            read(t + "die_cpus_list").ifPresent(dies::add);
            ids.add(new CpuTopology.CpuId(intOf(read(t + "core_id")), intOf(read(t + "physical_package_id")),
                    intOf(read(t + "die_id"))));
        }
        if (cores.isEmpty() || threads.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new CpuTopology(new ArrayList<>(cores), new ArrayList<>(threads), ids,
                !dies.isEmpty(), new ArrayList<>(dies)));
    }

    private static int intOf(Optional<String> s) {
        try {
            return s.map(Integer::parseInt).orElse(-1);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** PMU_MAPPINGS: every /sys/bus/event_source/devices/NAME/type, in directory order as perf lists them. */
    private static Optional<PmuMappings> pmuMappings() {
        List<PmuMappings.Pmu> pmus = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Path.of("/sys/bus/event_source/devices"))) {
            for (Path p : ds) {
                read(p.resolve("type").toString()).ifPresent(t -> {
                    try {
                        pmus.add(new PmuMappings.Pmu(Integer.parseInt(t), p.getFileName().toString()));
                    } catch (NumberFormatException e) {
                        // not a PMU directory
                    }
                });
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return pmus.isEmpty() ? Optional.empty() : Optional.of(new PmuMappings(pmus));
    }
}
