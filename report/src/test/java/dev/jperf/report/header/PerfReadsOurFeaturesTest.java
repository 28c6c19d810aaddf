package dev.jperf.report.header;

import static dev.jperf.report.CorpusFixture.TESTDATA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.bpf.BpilArray;
import dev.jperf.format.feature.BpfProgInfos;
import dev.jperf.format.feature.ClockData;
import dev.jperf.format.feature.ClockResolution;
import dev.jperf.format.feature.Compression;
import dev.jperf.format.feature.CpuPmuCaps;
import dev.jperf.format.feature.FeatureSection;
import dev.jperf.format.feature.GroupDescs;
import dev.jperf.format.feature.HybridTopology;
import dev.jperf.format.feature.PmuCap;
import dev.jperf.format.feature.PmuCaps;
import dev.jperf.report.PerfOracle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Linux perf 6.1 as the oracle for our encoders: a corpus file whose feature sections are all
 * re-encoded by format.feature (BPF_PROG_INFO rebuilt the recorder's way, from kernel-style info
 * bytes with pointers + arrays), plus features perf writes only on other machines (CLOCKID,
 * CLOCK_DATA, GROUP_DESC, COMPRESSED, CPU_PMU_CAPS, HYBRID_TOPOLOGY, PMU_CAPS with caps). perf's
 * {@code --header-only -I} of that file must equal ours, every line (same TZ, same mtime).
 */
class PerfReadsOurFeaturesTest {

    @Test
    void perfPrintsOurEncodingAsWeDo(@TempDir Path tmp) throws Exception {
        PerfOracle.assumeInstalled();
        Path src = TESTDATA.resolve("corpus/a-system-wide-bpf/perf.data");
        byte[] orig = Files.readAllBytes(src);
        ByteBuffer h = ByteBuffer.wrap(orig).order(ByteOrder.LITTLE_ENDIAN);
        long dataEnd = h.getLong(40) + h.getLong(48);

        TreeMap<Integer, FeatureSection> sections = new TreeMap<>();
        try (PerfDataFile f = PerfDataFile.open(src)) {
            f.features().sections().forEach(s -> sections.put(s.bit(), s));
        }
        // BPF_PROG_INFO the recorder's way: kernel info bytes (pointers = user addresses) + fetched arrays
        List<BpfProgInfo> rebuilt = new ArrayList<>();
        for (BpfProgInfo p : ((BpfProgInfos) sections.get(25)).programs()) {
            byte[] info = p.info();
            ByteBuffer ib = ByteBuffer.wrap(info).order(ByteOrder.LITTLE_ENDIAN);
            Map<BpilArray, byte[]> arrays = new EnumMap<>(BpilArray.class);
            for (BpilArray a : BpilArray.values()) {
                if (p.has(a)) {
                    ib.putLong(a.pointerOffset(), 0x7ffd00000000L + a.ordinal() * 0x10000L);
                    arrays.put(a, p.array(a));
                }
            }
            rebuilt.add(BpfProgInfo.fromKernel(info, arrays));
        }
        List<FeatureSection> extra = List.of(new BpfProgInfos(rebuilt), new ClockResolution(1),
                new ClockData(1, 1, 1_795_000_000_123_456_789L, 5_491_000_000_042L),
                new GroupDescs(List.of(new GroupDescs.Group("grp", 0, 2))),
                new Compression(0, Compression.ZSTD, 1, 3, 528384),
                new CpuPmuCaps(List.of(new PmuCap("branches", "32"), new PmuCap("max_precise", "3"))),
                new HybridTopology(List.of(new HybridTopology.Node("cpu_core", "0"), new HybridTopology.Node("cpu_atom", "1"))),
                new PmuCaps(List.of(new PmuCaps.Pmu("cpu_core", List.of(new PmuCap("branches", "32"))),
                        new PmuCaps.Pmu("cpu_atom", List.of()))));
        extra.forEach(s -> sections.put(s.bit(), s));

        Path out = tmp.resolve("perf.data");
        Files.write(out, splice(orig, dataEnd, sections));
        Files.setLastModifiedTime(out, FileTime.from(Instant.parse("2026-11-22T10:49:29Z")));

        ProcessBuilder pb = new ProcessBuilder("perf", "report", "-i", out.toString(), "--header-only", "-I");
        pb.environment().put("TZ", "UTC");
        pb.redirectErrorStream(false);
        Process proc = pb.start();
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        proc.getInputStream().transferTo(stdout);
        String err = new String(proc.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        proc.waitFor(60, TimeUnit.SECONDS);
        assertEquals(0, proc.exitValue(), err);
        List<String> perf = stdout.toString(StandardCharsets.UTF_8).lines().toList();

        String ours;
        try (PerfDataFile f = PerfDataFile.open(out)) {
            assertEquals(List.of(), f.features().warnings());
            ours = HeaderReport.render(f, Files.getLastModifiedTime(out).toInstant(), true, ZoneOffset.UTC);
        }
        for (String expected : List.of("# clockid frequency: 1000 MHz", "# clockid: monotonic (1)",
                "# group: grp{cpu-clock:ppp,dummy:HG}", "# compressed : Zstd, level = 1, ratio = 3",
                "# cpu pmu capabilities: branches=32, max_precise=3", "# cpu_atom cpu list : 1",
                "# cpu_core pmu capabilities: branches=32", "# cpu_atom pmu capabilities: not available",
                "# \tsub_prog 3: bpf_prog_4a3cf986b23077d4_fold_c addr 0xffffffffc0025d8c size 53")) {
            assertEquals(true, ours.contains(expected + "\n"), expected + " in\n" + ours);
        }
        assertEquals(String.join("\n", perf), String.join("\n", ours.lines().toList()), "perf stderr: " + err);
    }

    /** The file up to the end of its data, then a feature table for {@code sections} and their bodies; bitmap rewritten. */
    static byte[] splice(byte[] orig, long dataEnd, TreeMap<Integer, FeatureSection> sections) throws IOException {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        o.write(orig, 0, (int) dataEnd);
        List<byte[]> bodies = new ArrayList<>();
        sections.values().forEach(s -> bodies.add(s.encode()));
        ByteBuffer table = ByteBuffer.allocate(16 * bodies.size()).order(ByteOrder.LITTLE_ENDIAN);
        long off = dataEnd + table.capacity();
        for (byte[] b : bodies) {
            table.putLong(off).putLong(b.length);
            off += b.length;
        }
        o.write(table.array());
        for (byte[] b : bodies) {
            o.write(b);
        }
        byte[] file = o.toByteArray();
        ByteBuffer hb = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        long[] bitmap = new long[4];
        sections.keySet().forEach(bit -> bitmap[bit / 64] |= 1L << (bit % 64));
        for (int i = 0; i < 4; i++) {
            hb.putLong(72 + 8 * i, bitmap[i]);
        }
        return file;
    }

    /**
     * Without -I (the short form), on every file of {@link HeaderReportTest#goldens()}: perf run
     * here, now, on the same file; every line equal, "captured on" included (same mtime, TZ=UTC),
     * except the intended differences of {@link HeaderReportTest#DIFFERENT}.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.MethodSource("dev.jperf.report.header.HeaderReportTest#goldens")
    void shortFormEqualsPerfsOnEveryFile(String name, Path data, Path golden) throws Exception {
        PerfOracle.assumeInstalled();
        ProcessBuilder pb = new ProcessBuilder("perf", "report", "-i", data.toString(), "--header-only");
        pb.environment().put("TZ", "UTC");
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process proc = pb.start();
        String perfOut = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        proc.waitFor(60, TimeUnit.SECONDS);
        assumeTrue(proc.exitValue() == 0, name + ": perf exits " + proc.exitValue());
        List<String> perf = perfOut.lines().toList();
        if (perf.indexOf("# ========") > 0) {
            perf = perf.subList(perf.indexOf("# ========"), perf.size()); // stderr-like preamble some perf paths print on stdout
        }
        String ours;
        try (PerfDataFile f = PerfDataFile.open(data)) {
            ours = HeaderReport.render(f, Files.getLastModifiedTime(data).toInstant(), false, ZoneOffset.UTC);
        }
        List<String> have = ours.lines().toList();
        HeaderReportTest.Difference d = HeaderReportTest.DIFFERENT.get(name);
        if (d != null) {
            perf = perf.stream().filter(l -> d.perfOnly().stream().noneMatch(l::matches)).toList();
            have = have.stream().filter(l -> d.jperfOnly().stream().noneMatch(l::matches)).toList();
        }
        assertEquals(String.join("\n", perf), String.join("\n", have), name);
    }
}
