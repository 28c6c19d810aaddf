package dev.jperf.format.feature;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.record.PerfRecord;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** decode(encode(x)) == x for a hand-built value of every feature, including those no corpus file has. */
class FeatureValuesTest {

    static List<FeatureSection> samples() {
        return List.of(
                new StringFeature(Feature.HOSTNAME, "vm"),
                new StringFeature(Feature.OSRELEASE, "6.18.44"),
                new StringFeature(Feature.VERSION, "jperf 0.1"),
                new StringFeature(Feature.ARCH, "x86_64"),
                new StringFeature(Feature.CPUDESC, "AMD EPYC"),
                new StringFeature(Feature.CPUID, "AuthenticAMD,25,17,1"),
                new NrCpus(4, 2),
                new TotalMem(24684084),
                new Cmdline(List.of("/usr/bin/jperf", "record", "-a", "it's quoted")),
                new EventDescs(8, List.of(new EventDescs.Event(new byte[8], "cpu-clock", new long[] {1, 2}),
                        new EventDescs.Event(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, "dummy:HG", new long[0]))),
                new CpuTopology(List.of("0-3"), List.of("0-1", "2-3"), List.of(new CpuTopology.CpuId(0, 0, 0),
                        new CpuTopology.CpuId(0, 0, 0), new CpuTopology.CpuId(1, 0, 0), new CpuTopology.CpuId(1, 0, 0)),
                        true, List.of("0-3")),
                new NumaTopology(List.of(new NumaTopology.Node(0, 100, 50, "0-1"), new NumaTopology.Node(1, 10, 5, "2-3"))),
                new BuildIds(List.of(new BuildIds.Entry(PerfRecord.PERF_RECORD_MISC_BUILD_ID_SIZE | 1, -1, new byte[20], "[kernel.kallsyms]"),
                        new BuildIds.Entry(PerfRecord.PERF_RECORD_MISC_BUILD_ID_SIZE | 2, -1, new byte[] {1, 2, 3, 4}, "/usr/bin/x"))),
                new EmptyFeature(Feature.BRANCH_STACK.bit()),
                new PmuMappings(List.of(new PmuMappings.Pmu(1, "software"), new PmuMappings.Pmu(2, "tracepoint"))),
                new GroupDescs(List.of(new GroupDescs.Group(GroupDescs.ANON_GROUP, 0, 2))),
                new RawFeature(Feature.AUXTRACE.bit(), new byte[] {1, 2, 3}),
                new EmptyFeature(Feature.STAT.bit()),
                new CacheTopology(1, List.of(new CacheTopology.Level(1, 64, 64, 8, "Data", "32K", "0-1"))),
                new SampleTime(5491593358000L, 5494832336000L),
                new MemTopology(1, 0x8000000, List.of(new MemTopology.Node(0, 200, 200, new long[] {0xffffffL, -1, -1, 0xff}))),
                new ClockResolution(1),
                new DirFormat(1),
                new BpfProgInfos(List.of()),
                new BpfBtfs(List.of(new BpfBtfs.BtfBlob(7, new byte[] {(byte) 0x9f, (byte) 0xeb, 1, 0}))),
                new Compression(0, Compression.ZSTD, 1, 3, 528384),
                new CpuPmuCaps(List.of(new PmuCap("branches", "32"), new PmuCap("max_precise", "3"))),
                new ClockData(1, 1, 1_700_000_000_123_456_789L, 5_000_000_001L),
                new HybridTopology(List.of(new HybridTopology.Node("cpu_core", "0-3"), new HybridTopology.Node("cpu_atom", "4-11"))),
                new PmuCaps(List.of(new PmuCaps.Pmu("cpu_core", List.of(new PmuCap("branches", "32"))),
                        new PmuCaps.Pmu("cpu_atom", List.of()))),
                new RawFeature(Feature.CPU_DOMAIN_INFO.bit(), new byte[8]),
                new RawFeature(77, new byte[] {9}));
    }

    @Test
    void everyFeatureRoundTrips() {
        for (FeatureSection s : samples()) {
            byte[] body = s.encode();
            FeatureSection back = FeatureCodec.decode(s.bit(), ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN), 4);
            assertEquals(s, back, Feature.name(s.bit()));
            assertArrayEquals(body, back.encode(), Feature.name(s.bit()));
        }
        Set<Feature> covered = samples().stream().map(FeatureSection::feature).filter(f -> f != null)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(Feature.class)));
        assertEquals(EnumSet.complementOf(EnumSet.of(Feature.RESERVED, Feature.TRACING_DATA)), covered);
    }

    @Test
    void featuresCollectsAndKeepsBadBodiesRaw() {
        Features f = Features.of(samples());
        assertEquals("vm", f.hostname().orElseThrow());
        assertEquals(4, f.nrCpus().orElseThrow().available());
        java.util.Map<Integer, ByteBuffer> bodies = new java.util.TreeMap<>();
        samples().forEach(s -> bodies.put(s.bit(), ByteBuffer.wrap(s.encode()).order(ByteOrder.LITTLE_ENDIAN)));
        bodies.put(Feature.CACHE.bit(), ByteBuffer.wrap(new byte[] {2, 0, 0, 0, 0, 0, 0, 0}).order(ByteOrder.LITTLE_ENDIAN));
        Features decoded = Features.decode(bodies);
        assertEquals(List.of("CACHE: unsupported version 2 (at byte 4 of 8)"), decoded.warnings());
        assertTrue(decoded.cache().isEmpty());
        assertTrue(decoded.get(Feature.CACHE.bit()).orElseThrow() instanceof RawFeature);
        assertEquals(f.clockData(), decoded.clockData());
        assertEquals(Set.copyOf(f.bits()), Set.copyOf(decoded.bits()));
    }

    @Test
    void perfStringsArePaddedTo64() {
        assertArrayEquals(new byte[] {0x40, 0, 0, 0, 'v', 'm'}, java.util.Arrays.copyOf(new StringFeature(Feature.HOSTNAME, "vm").encode(), 6));
        assertEquals(68, new StringFeature(Feature.HOSTNAME, "vm").encode().length);
        assertEquals(4 + 128, new StringFeature(Feature.HOSTNAME, "x".repeat(64)).encode().length);
    }

    @Test
    void cpuTopologyWithoutNrCpusInfersFromSize() {
        CpuTopology t = new CpuTopology(List.of("0-1"), List.of("0", "1"),
                List.of(new CpuTopology.CpuId(0, 0, 0), new CpuTopology.CpuId(1, 0, 0)), false, List.of());
        assertEquals(t, CpuTopology.decode(ByteBuffer.wrap(t.encode()).order(ByteOrder.LITTLE_ENDIAN), -1));
        assertThrows(IllegalArgumentException.class, () -> new CpuTopology(List.of(), List.of(), List.of(), true, List.of()));
    }
}
