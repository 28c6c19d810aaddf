package dev.jperf.cli;

import static dev.jperf.report.CorpusFixture.CORPUS;
import static dev.jperf.report.CorpusFixture.EXTERNAL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code jperf report --stats} prints exactly what perf 6.1 printed, on every corpus case and external vector. */
class ReportStatsTest {

    static Stream<Path> corpus() throws IOException {
        try (Stream<Path> s = Files.list(CORPUS)) {
            return s.filter(d -> Files.exists(d.resolve("stats.txt"))).sorted().toList().stream();
        }
    }

    /** External vectors perf 6.1 read (its output has "Aggregated stats"). */
    static Stream<Path> external() throws IOException {
        try (Stream<Path> s = Files.list(EXTERNAL.resolve("golden"))) {
            return s.filter(p -> p.getFileName().toString().endsWith(".stats.txt")).filter(p -> read(p).contains("Aggregated stats"))
                    .sorted().toList().stream();
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void corpusStatsEqualPerf(Path dir) {
        Run r = Run.of("report", "--stats", "-i", dir.resolve("perf.data").toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals(read(dir.resolve("stats.txt")), r.out());
        assertEquals("", r.err());
    }

    @Test
    void pipeModeFromStdin() throws IOException {
        Path dir = CORPUS.resolve("f-pipe");
        Run r = Run.withStdin(dir.resolve("perf.data"), "report", "--stats", "-i", "-");
        assertEquals(0, r.rc(), r.err());
        assertEquals(read(dir.resolve("stats.txt")), r.out());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("external")
    void externalStatsEqualPerf(Path golden) {
        String name = golden.getFileName().toString().replace(".stats.txt", "");
        Path data = Files.exists(EXTERNAL.resolve("perf_data_converter/" + name))
                ? EXTERNAL.resolve("perf_data_converter/" + name)
                : EXTERNAL.resolve("linux-perf-data/" + name);
        List<String> lines = read(golden).lines().toList();
        assertTrue(lines.get(lines.size() - 1).startsWith("exit "));
        String want = String.join("\n", lines.subList(0, lines.size() - 1)) + "\n";
        Run r = Run.of("report", "--stats", "-i", data.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals(want, r.out());
    }
}
