package dev.jperf.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.RecordType;
import dev.jperf.format.record.SampleRecord;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every corpus file parses, and its record counts per type equal perf's {@code --stats}. */
class RecordCountsTest {

    static Stream<Path> corpus() {
        return Corpus.corpusFiles().stream();
    }

    /** Counts records per perf name ("TOTAL" included), as perf's --stats does. */
    static Map<String, Long> count(PerfDataFile f) {
        Map<String, Long> m = new TreeMap<>();
        long total = 0;
        try (RecordStream rs = f.records()) {
            while (rs.hasNext()) {
                PerfRecord r = rs.next();
                m.merge(RecordType.name(r.type()), 1L, Long::sum);
                total++;
            }
        }
        m.put("TOTAL", total);
        return m;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void countsEqualPerfStats(Path file) {
        try (PerfDataFile f = PerfDataFile.open(file)) {
            Map<String, Long> got = count(f);
            Map<String, Long> want = Corpus.aggregated(file.resolveSibling("stats.txt"));
            assertFalse(want.isEmpty(), "golden has counts");
            assertEquals(new TreeMap<>(want), got, file.toString());
            assertTrue(f.warnings().isEmpty(), () -> "warnings: " + f.warnings());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void samplesHaveTheirEventAndFields(Path file) {
        try (PerfDataFile f = PerfDataFile.open(file); RecordStream rs = f.records()) {
            long n = 0;
            while (rs.hasNext()) {
                if (rs.next() instanceof SampleRecord s) {
                    n++;
                    assertTrue(s.event() != null && s.time() > 0 && s.pid() >= -1, s.toString());
                }
            }
            assertTrue(n > 1000, "samples: " + n);
        }
    }
}
