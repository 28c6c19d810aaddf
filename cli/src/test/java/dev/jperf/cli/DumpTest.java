package dev.jperf.cli;

import static dev.jperf.report.CorpusFixture.CORPUS;
import static dev.jperf.report.CorpusFixture.EXTERNAL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import dev.jperf.report.CorpusFixture;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code jperf dump} / {@code report -D}: each record's decoded line equals perf report -D's line for it. */
class DumpTest {
    private static final Pattern DECODED = Pattern.compile("^(?:-?\\d+ )*(0x[0-9a-f]+|0) \\[0x[0-9a-f]+\\]: PERF_RECORD_.*$");

    private static Map<String, String> decodedByOffset(List<String> lines) {
        Map<String, String> m = new HashMap<>();
        for (String l : lines) {
            Matcher x = DECODED.matcher(l);
            if (x.matches()) {
                m.put(x.group(1), l);
            }
        }
        return m;
    }

    @ParameterizedTest
    @ValueSource(strings = {"a-system-wide-bpf", "b-callchains-bpf", "c-process", "f-pipe", "g-two-events"})
    void decodedLinesEqualPerf(String kase) throws Exception {
        Path dir = CORPUS.resolve(kase);
        Map<String, String> perf = decodedByOffset(CorpusFixture.lines(dir.resolve("dump.txt.xz")));
        Run r = Run.of("report", "-D", "-i", dir.resolve("perf.data").toString());
        assertEquals(0, r.rc(), r.err());
        Map<String, String> ours = decodedByOffset(r.out().lines().toList());
        int compared = 0;
        for (Map.Entry<String, String> e : perf.entrySet()) {
            String want = e.getValue();
            if (want.endsWith("unhandled!") || want.contains("PERF_RECORD_ATTR") || want.contains("PERF_RECORD_FEATURE")) {
                continue; // perf prints no fields for these; ours does
            }
            assertEquals(want, ours.get(e.getKey()), kase + " at " + e.getKey());
            compared++;
        }
        assertTrue(compared > 1000, "compared " + compared);
        assertTrue(r.out().contains("\nAggregated stats:\n"));
    }

    static java.util.stream.Stream<Path> external() throws IOException {
        return java.util.stream.Stream.concat(
                java.nio.file.Files.list(EXTERNAL.resolve("perf_data_converter")),
                java.nio.file.Files.list(EXTERNAL.resolve("linux-perf-data")))
                .filter(p -> !p.getFileName().toString().startsWith("LICENSE") && !p.getFileName().toString().endsWith(".md"))
                .sorted();
    }

    /** Every record type of the external vectors prints (with its hex dump); problems are warnings, one line each. */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.MethodSource("external")
    void dumpsEveryExternalVector(Path file) {
        Run r = Run.of("report", "-D", "-i", file.toString());
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("Aggregated stats:"));
        r.err().lines().forEach(l -> assertTrue(l.startsWith("warning: " + file), l));
        assertTrue(r.err().lines().count() <= 1, r.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"c-process", "f-pipe"})
    void dumpPrintsEveryRecord(String kase) throws Exception {
        Path dir = CORPUS.resolve(kase);
        Run r = Run.of("dump", "-i", dir.resolve("perf.data").toString());
        assertEquals(0, r.rc(), r.err());
        long records = r.out().lines().filter(l -> DECODED.matcher(l).matches()).count();
        Run stats = Run.of("report", "--stats", "-i", dir.resolve("perf.data").toString());
        Matcher total = Pattern.compile("TOTAL events:\\s+(\\d+)").matcher(stats.out());
        assertTrue(total.find());
        assertEquals(Long.parseLong(total.group(1)), records);
    }
}
