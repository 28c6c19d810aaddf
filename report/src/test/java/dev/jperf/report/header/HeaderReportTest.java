package dev.jperf.report.header;

import static dev.jperf.report.CorpusFixture.TESTDATA;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jperf.format.PerfDataFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code --header-only -I} against perf 6.1's golden output for every corpus case, every damaged
 * corpus file perf printed a header for, and every external vector perf could read. Excluded
 * line everywhere: "# captured on" (perf prints the file's mtime, i.e. when the golden was made
 * from that copy, not when this copy was written). Per-case exclusions are in {@link #DIFFERENT}.
 */
class HeaderReportTest {
    /** A known, intended difference: lines only perf prints and lines only jperf prints (regexes). */
    record Difference(String why, List<String> perfOnly, List<String> jperfOnly) {
    }

    static final Map<String, Difference> DIFFERENT = Map.of(
            "perf.data.armv7.perf_3.14-3.8", new Difference(
                    "CPUDESC has an empty body; perf stops processing features after it and prints empty values for"
                            + " TOTAL_MEM, CMDLINE, CPU_TOPOLOGY, PMU_MAPPINGS; jperf decodes each feature on its own",
                    List.of("# total memory : 0 kB", "# cmdline : ", "# pmu mappings: not available"),
                    List.of("# total memory : \\d+ kB", "# cmdline : /usr/bin/perf .*", "# sibling (sockets|threads) : .*",
                            "# CPU \\d+: Core ID .*", "# pmu mappings: cycles .*|# pmu mappings: .* = .*")),
            "perf.data.weight_struct", new Difference(
                    "written with 8-byte aligned strings (not perf): perf 6.1 measures CPU_TOPOLOGY assuming 64-byte"
                            + " alignment, concludes the per-CPU ids are absent; jperf reads them",
                    List.of("# Core ID and Socket ID information is not available"),
                    List.of("# CPU \\d+: Core ID \\d+, Socket ID \\d+")),
            "bpf-prog-info-offset-into-data.data", new Difference(
                    "BPF_PROG_INFO points into the data section: perf rejects it and drops every later feature;"
                            + " jperf skips only that section (a warning names it) and still prints BPF_BTF",
                    List.of(),
                    List.of("# btf info of id \\d+")),
            "cpu-topology-offset-into-data.data", new Difference(
                    "CPU_TOPOLOGY points into the data section: perf reads garbage, fails, and prints empty values"
                            + " for every later feature, and the PMU mappings of the machine it runs on (not the file's);"
                            + " jperf skips only that section",
                    List.of("# Core ID and Socket ID information is not available", "# time of first sample : 0.000000",
                            "# time of last sample : 0.000000", "# sample duration :      0.000 ms",
                            "# memory nodes \\(nr 0, block size 0x0\\):", "# CPU_TOPOLOGY info available, use -I to display",
                            "# pmu mappings: .*"),
                    List.of("# node0 .*", "#  L\\d .*", "# time of (first|last) sample : [1-9].*",
                            "# sample duration : .*[1-9].* ms", "# memory nodes \\(nr 1, .*", "#    0 \\[.*",
                            "# pmu mappings: .*")));


    static Stream<Arguments> goldens() throws IOException {
        List<Arguments> out = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(TESTDATA.resolve("corpus"))) {
            for (Path d : dirs.sorted().toList()) {
                if (Files.exists(d.resolve("header.txt")) && Files.exists(d.resolve("perf.data"))) {
                    out.add(Arguments.of(d.getFileName().toString(), d.resolve("perf.data"), d.resolve("header.txt")));
                }
            }
        }
        try (Stream<Path> files = Files.list(TESTDATA.resolve("corpus/h-damaged"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".header.txt")).sorted().toList()) {
                String base = f.getFileName().toString().replace(".header.txt", "");
                if (Files.readString(f.resolveSibling(base + ".header.rc")).trim().equals("0")) {
                    out.add(Arguments.of(base + ".data", f.resolveSibling(base + ".data"), f));
                }
            }
        }
        Path golden = TESTDATA.resolve("external/golden");
        for (String dir : List.of("perf_data_converter", "linux-perf-data")) {
            try (Stream<Path> files = Files.list(TESTDATA.resolve("external").resolve(dir))) {
                for (Path f : files.sorted().toList()) {
                    Path g = golden.resolve(f.getFileName() + ".header.txt");
                    // two goldens start with perf's stderr (an Intel PT warning, "bad event header size"): compared from "# ========" on
                    if (Files.exists(g) && Files.size(g) > 0 && Files.readString(g).contains("# ========\n")) {
                        out.add(Arguments.of(f.getFileName().toString(), f, g));
                    }
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldens")
    void matchesPerf(String name, Path data, Path golden) throws IOException {
        List<String> want = Files.readAllLines(golden);
        want = want.subList(want.indexOf("# ========"), want.size());
        String got;
        try (PerfDataFile f = PerfDataFile.open(data)) {
            got = HeaderReport.render(f, Instant.EPOCH, true, ZoneOffset.UTC);
        }
        List<String> have = got.lines().toList();
        Difference d = DIFFERENT.get(name);
        if (d != null) {
            want = drop(want, d.perfOnly());
            have = drop(have, d.jperfOnly());
        }
        List<String> diffs = new ArrayList<>();
        for (int i = 0; i < Math.max(want.size(), have.size()); i++) {
            String w = i < want.size() ? want.get(i) : "<missing>";
            String h = i < have.size() ? have.get(i) : "<missing>";
            if (w.startsWith("# captured on") && h.startsWith("# captured on")) {
                continue;
            }
            if (!w.equals(h)) {
                diffs.add("line " + (i + 1) + "\n  perf : " + w + "\n  jperf: " + h);
            }
        }
        assertEquals("", String.join("\n", diffs.subList(0, Math.min(5, diffs.size()))), name + ": " + diffs.size() + " differing lines");
    }

    private static List<String> drop(List<String> lines, List<String> regexes) {
        return lines.stream().filter(l -> regexes.stream().noneMatch(l::matches)).toList();
    }
}
