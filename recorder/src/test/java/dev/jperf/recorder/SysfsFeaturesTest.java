package dev.jperf.recorder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.feature.CacheTopology;
import dev.jperf.format.feature.MemTopology;
import dev.jperf.format.feature.NumaTopology;
import dev.jperf.format.feature.PmuCap;
import dev.jperf.format.feature.PmuCaps;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * perf's sysfs rules on a made-up machine with caches, two memory nodes and PMU capabilities
 * (this VM has none of these; RecorderTest compares the real ones with perf's own recording).
 */
class SysfsFeaturesTest {
    @TempDir
    Path sys;

    private void file(String path, String text) throws IOException {
        Path p = sys.resolve(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    private void cache(int cpu, int index, int level, String type, String size, String map) throws IOException {
        String d = "devices/system/cpu/cpu" + cpu + "/cache/index" + index + "/";
        file(d + "level", level + "\n");
        file(d + "coherency_line_size", "64\n");
        file(d + "number_of_sets", "64\n");
        file(d + "ways_of_associativity", "8\n");
        file(d + "type", type + "\n");
        file(d + "size", size + "\n");
        file(d + "shared_cpu_list", map + "\n");
    }

    @Test
    void cacheLevelsOncePerDistinctLevelOrderedByLevelInCpuOrder() throws Exception {
        file("devices/system/cpu/possible", "0-1\n");
        for (int cpu = 0; cpu < 2; cpu++) {
            cache(cpu, 0, 1, "Data", "32K", Integer.toString(cpu));
            cache(cpu, 1, 1, "Instruction", "32K", Integer.toString(cpu));
            cache(cpu, 2, 2, "Unified", "512K", Integer.toString(cpu));
            cache(cpu, 3, 3, "Unified", "32768K", "0-1");
        }
        List<String> got = new SysfsFeatures(sys).cache().orElseThrow().levels().stream()
                .map(l -> "L" + l.level() + " " + l.type() + " " + l.size() + " " + l.map()).toList();
        assertEquals(List.of("L1 Data 32K 0", "L1 Instruction 32K 0", "L1 Data 32K 1", "L1 Instruction 32K 1",
                "L2 Unified 512K 0", "L2 Unified 512K 1", "L3 Unified 32768K 0-1"), got);
    }

    @Test
    void noCacheDirectoryIsAnEmptySection() throws Exception {
        file("devices/system/cpu/possible", "0-1\n");
        CacheTopology c = new SysfsFeatures(sys).cache().orElseThrow();
        assertEquals(1, c.version());
        assertTrue(c.levels().isEmpty());
    }

    @Test
    void memoryNodesAreBitmapsOfTheirBlocks() throws Exception {
        file("devices/system/memory/block_size_bytes", "8000000\n");
        for (String m : List.of("memory0", "memory2", "memory65")) {
            Files.createDirectories(sys.resolve("devices/system/node/node0/" + m));
        }
        Files.createDirectories(sys.resolve("devices/system/node/node1"));
        file("devices/system/node/online", "0-1\n");
        MemTopology t = new SysfsFeatures(sys).memTopology().orElseThrow();
        assertEquals(0x8000000L, t.blockSize());
        assertEquals(2, t.nodes().size());
        MemTopology.Node n0 = t.nodes().get(0);
        assertEquals(66, n0.size());
        assertArrayEquals(new long[] {0b101, 0b10}, n0.bitmap());
        assertEquals(1, t.nodes().get(1).size());
        assertArrayEquals(new long[] {0}, t.nodes().get(1).bitmap());
    }

    @Test
    void numaNodesFromTheirMeminfoAndCpulist() throws Exception {
        file("devices/system/node/online", "0\n");
        file("devices/system/node/node0/meminfo", "Node 0 MemTotal:        4548384 kB\nNode 0 MemFree:         3819040 kB\n"
                + "Node 0 MemUsed:          729344 kB\n");
        file("devices/system/node/node0/cpulist", "0-1\n");
        assertEquals(List.of(new NumaTopology.Node(0, 4548384, 3819040, "0-1")),
                new SysfsFeatures(sys).numaTopology().orElseThrow().nodes());
    }

    @Test
    void pmuCapsOfEveryPmuButCpuThatHasSome() throws Exception {
        file("bus/event_source/devices/cpu/caps/max_precise", "3\n");
        file("bus/event_source/devices/ibs_op/caps/zen4_ibs_extensions", "1\n");
        Files.createDirectories(sys.resolve("bus/event_source/devices/software"));
        PmuCaps caps = new SysfsFeatures(sys).pmuCaps().orElseThrow();
        assertEquals(List.of(new PmuCaps.Pmu("ibs_op", List.of(new PmuCap("zen4_ibs_extensions", "1")))), caps.pmus());
    }
}
