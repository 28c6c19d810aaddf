package dev.jperf.recorder;

import dev.jperf.format.io.ProcFs;
import dev.jperf.format.feature.CacheTopology;
import dev.jperf.format.feature.MemTopology;
import dev.jperf.format.feature.NumaTopology;
import dev.jperf.format.feature.PmuCap;
import dev.jperf.format.feature.PmuCaps;
import dev.jperf.format.header.CpuList;
import dev.jperf.format.header.SystemCpus;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.StringTokenizer;
import java.util.TreeMap;

/**
 * The machine-description sections perf 6.1 builds from sysfs (util/cputopo.c, util/header.c):
 * NUMA_TOPOLOGY, CACHE, MEM_TOPOLOGY and PMU_CAPS, read the way perf reads them. Where perf's
 * builder fails (a file it needs is missing or unreadable) the section is left out, as perf
 * leaves it out.
 */
final class SysfsFeatures {
    /** perf's MAX_CACHE_LVL: cache indexes tried per CPU. */
    private static final int MAX_CACHE_LVL = 4;

    private final Path sys;

    /** {@code sys}: the sysfs mount point (/sys). */
    SysfsFeatures(Path sys) {
        this.sys = sys;
    }

    /**
     * NUMA_TOPOLOGY (numa_topology__new): each online node with MemTotal and MemFree from its
     * meminfo and its cpulist.
     */
    Optional<NumaTopology> numaTopology() {
        try {
            List<NumaTopology.Node> nodes = new ArrayList<>();
            for (int node : CpuList.parse(read("devices/system/node/online"))) {
                Path dir = sys.resolve("devices/system/node/node" + node);
                long total = 0;
                long free = 0;
                for (String line : Files.readAllLines(dir.resolve("meminfo"))) {
                    // "Node 0 MemTotal:       4548384 kB" (a tokenizer, not split's regex: the record
                    // path's first lambda, in the JDK's regex classes, cost a measurable part of its start)
                    StringTokenizer f = new StringTokenizer(line);
                    if (f.countTokens() < 4 || !line.contains(":")) {
                        continue;
                    }
                    f.nextToken();
                    f.nextToken();
                    String key = f.nextToken();
                    if (key.equals("MemTotal:")) {
                        total = Long.parseLong(f.nextToken());
                    } else if (key.equals("MemFree:")) {
                        free = Long.parseLong(f.nextToken());
                    }
                    if (total != 0 && free != 0) {
                        break;
                    }
                }
                nodes.add(new NumaTopology.Node(node, total, free, read(dir.resolve("cpulist"))));
            }
            return Optional.of(new NumaTopology(nodes));
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * CACHE (build_caches): for CPUs 0 to the last possible one, cache index0.. until one is
     * missing; each distinct level once, in CPU order, then ordered by level.
     */
    Optional<CacheTopology> cache() {
        try {
            int maxCpu = SystemCpus.maxCpu(read("devices/system/cpu/possible"));
            List<CacheTopology.Level> levels = new ArrayList<>();
            for (int cpu = 0; cpu < maxCpu; cpu++) {
                for (int index = 0; index < MAX_CACHE_LVL; index++) {
                    Path dir = sys.resolve("devices/system/cpu/cpu" + cpu + "/cache/index" + index);
                    if (!Files.exists(dir)) {
                        break;
                    }
                    CacheTopology.Level l = new CacheTopology.Level(readInt(dir.resolve("level")),
                            readInt(dir.resolve("coherency_line_size")), readInt(dir.resolve("number_of_sets")),
                            readInt(dir.resolve("ways_of_associativity")), read(dir.resolve("type")),
                            read(dir.resolve("size")), read(dir.resolve("shared_cpu_list")));
                    if (!contains(levels, l)) {
                        levels.add(l);
                    }
                }
            }
            sortByLevel(levels); // stable, as glibc's qsort here
            return Optional.of(new CacheTopology(1, levels));
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * MEM_TOPOLOGY (build_mem_topology): block_size_bytes (hex), and per nodeN directory the
     * bitmap of its memoryM entries, sized by the highest M + 1; nodes ordered by number.
     */
    Optional<MemTopology> memTopology() {
        try {
            long blockSize = Long.parseUnsignedLong(read("devices/system/memory/block_size_bytes"), 16);
            TreeMap<Long, MemTopology.Node> nodes = new TreeMap<>();
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(sys.resolve("devices/system/node"))) {
                for (Path p : ds) {
                    long node = numbered(p.getFileName().toString(), "node");
                    if (node >= 0) {
                        nodes.put(node, memoryNode(node, p));
                    }
                }
            }
            return Optional.of(new MemTopology(1, blockSize, new ArrayList<>(nodes.values())));
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * N of a directory entry named PREFIX followed by the digits N (anything after them ignored, as
     * perf's sscanf reads it), -1 if the name is not that. The record path's start runs no regex
     * and no lambda (see HeaderFeatures#setStatic).
     */
    static long numbered(String name, String prefix) {
        if (!name.startsWith(prefix)) {
            return -1;
        }
        long v = 0;
        int i = prefix.length();
        for (; i < name.length() && name.charAt(i) >= '0' && name.charAt(i) <= '9' && v < Integer.MAX_VALUE; i++) {
            v = v * 10 + (name.charAt(i) - '0');
        }
        return i == prefix.length() ? -1 : v;
    }

    /** Equal fields, compared by hand: a record's generated equals bootstraps method handles on first use. */
    private static boolean contains(List<CacheTopology.Level> levels, CacheTopology.Level l) {
        for (CacheTopology.Level o : levels) {
            if (o.level() == l.level() && o.lineSize() == l.lineSize() && o.sets() == l.sets() && o.ways() == l.ways()
                    && o.type().equals(l.type()) && o.size().equals(l.size()) && o.map().equals(l.map())) {
                return true;
            }
        }
        return false;
    }

    /** A stable insertion sort by level: a handful of entries. */
    private static void sortByLevel(List<CacheTopology.Level> levels) {
        for (int i = 1; i < levels.size(); i++) {
            CacheTopology.Level l = levels.get(i);
            int j = i - 1;
            while (j >= 0 && levels.get(j).level() > l.level()) {
                levels.set(j + 1, levels.get(j));
                j--;
            }
            levels.set(j + 1, l);
        }
    }

    private static MemTopology.Node memoryNode(long node, Path dir) throws IOException {
        List<Integer> blocks = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                long block = numbered(p.getFileName().toString(), "memory");
                if (block >= 0 && block <= Integer.MAX_VALUE) {
                    blocks.add((int) block);
                }
            }
        }
        int max = 0;
        for (int b : blocks) {
            max = Math.max(max, b);
        }
        int size = max + 1;
        long[] bitmap = new long[(size + 63) / 64];
        for (int b : blocks) {
            bitmap[b / 64] |= 1L << (b % 64);
        }
        return new MemTopology.Node(node, size, size, bitmap);
    }

    /**
     * PMU_CAPS (write_pmu_caps): every PMU but "cpu" with at least one file under caps/, each
     * file a capability (its first line the value), in directory order as perf scans them.
     */
    Optional<PmuCaps> pmuCaps() {
        List<PmuCaps.Pmu> pmus = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(sys.resolve("bus/event_source/devices"))) {
            for (Path p : ds) {
                String name = p.getFileName().toString();
                Path caps = p.resolve("caps");
                if (name.equals("cpu") || !Files.isDirectory(caps)) {
                    continue;
                }
                List<PmuCap> list = new ArrayList<>();
                try (DirectoryStream<Path> cs = Files.newDirectoryStream(caps)) {
                    for (Path c : cs) {
                        if (Files.isRegularFile(c)) {
                            String v = ProcFs.readText(c);
                            int nl = v.indexOf('\n');
                            list.add(new PmuCap(c.getFileName().toString(), nl < 0 ? v : v.substring(0, nl)));
                        }
                    }
                }
                if (!list.isEmpty()) {
                    pmus.add(new PmuCaps.Pmu(name, list));
                }
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.of(new PmuCaps(pmus));
    }

    private String read(String relative) throws IOException {
        return read(sys.resolve(relative));
    }

    private static String read(Path p) throws IOException {
        return ProcFs.readText(p);
    }

    private static int readInt(Path p) throws IOException {
        try {
            return Integer.parseInt(read(p));
        } catch (NumberFormatException e) {
            throw new IOException(p + ": not a number", e);
        }
    }
}
