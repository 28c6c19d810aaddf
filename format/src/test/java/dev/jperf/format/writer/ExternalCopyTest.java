package dev.jperf.format.writer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.PerfOracle;
import dev.jperf.format.RecordStream;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.RecordType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every external vector (other tools, machines and perf versions, 3.2 to 6.12, file and pipe
 * mode), copied to file mode, is read by perf 6.1 in full, including the 8 files perf 6.1 cannot
 * read itself (152-byte attrs, zstd and COMPRESSED2 records, a cut AUXTRACE payload, a corrupt
 * stream): the copy holds every record the reader finds in the original except the header records
 * that became sections (HEADER_ATTR, HEADER_FEATURE) and the compressed containers, whose records
 * it holds decompressed; where perf 6.1 reads the original, its record counts of the copy equal
 * its counts of the original. One legitimate difference: for a pipe-mode original perf 6.1 names
 * the events from their attrs ("cycles:uH"), for the file-mode copy from HEADER_EVENT_DESC, i.e.
 * the name the recording perf gave ("cycles:u"); per-event counts are compared in event order.
 */
class ExternalCopyTest {
    @TempDir
    Path tmp;

    static final Set<Integer> BECAME_SECTIONS = Set.of(RecordType.PERF_RECORD_HEADER_ATTR,
            RecordType.PERF_RECORD_HEADER_FEATURE, RecordType.PERF_RECORD_COMPRESSED, RecordType.PERF_RECORD_COMPRESSED2);
    static final Set<String> PERF_SECTION_NAMES = Set.of("ATTR", "FEATURE", "COMPRESSED", "TOTAL");

    static Stream<Path> vectors() throws Exception {
        Path ext = Corpus.EXTERNAL;
        try (Stream<Path> files = Stream.concat(Files.list(ext.resolve("perf_data_converter")), Files.list(ext.resolve("linux-perf-data")))) {
            return files.filter(f -> Files.exists(ext.resolve("golden").resolve(f.getFileName() + ".stats.txt")))
                    .sorted().collect(Collectors.toList()).stream();
        }
    }

    /** Records the reader finds, by type, without those that become sections in a file-mode copy. */
    static Map<Integer, Long> recordsByType(Path f) {
        Map<Integer, Long> n = new TreeMap<>();
        try (PerfDataFile p = PerfDataFile.open(f); RecordStream rs = p.records()) {
            while (rs.hasNext()) {
                PerfRecord r = rs.next();
                if (!BECAME_SECTIONS.contains(r.type())) {
                    n.merge(r.type(), 1L, Long::sum);
                }
            }
        }
        return n;
    }

    /** perf's "--stats" counts ("NAME events: N", per section) without those that differ by mode. */
    static String perfCounts(String stats, boolean withEventNames) {
        StringBuilder sb = new StringBuilder();
        Matcher m = Pattern.compile("(?m)^(\\S.*stats:)$|^ +(\\S+) events: +(\\d+)").matcher(stats);
        while (m.find()) {
            if (m.group(1) != null) {
                sb.append(withEventNames ? m.group(1) : "event stats:").append('\n');
            } else if (!PERF_SECTION_NAMES.contains(m.group(2))) {
                sb.append(m.group(2)).append(' ').append(m.group(3)).append('\n');
            }
        }
        return sb.toString();
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void copyIsReadByPerf61(Path in) throws Exception {
        Path out = tmp.resolve("perf.data");
        PerfDataCopier.Result r = PerfDataCopier.copy(in, out);
        Map<Integer, Long> copied = recordsByType(out);
        assertEquals(recordsByType(in), copied);
        assertEquals(copied.values().stream().mapToLong(Long::longValue).sum(), r.records());

        PerfOracle.assumeInstalled();
        PerfOracle.Result stats = PerfOracle.perf("report", "-i", out.toString(), "--stats");
        assertEquals(0, stats.rc(), stats.err());
        assertTrue(stats.out().contains("Aggregated stats:"), stats.out() + stats.err());
        assertFalse(stats.err().contains("unexpected end") || stats.err().contains("failed"), stats.err());
        String golden = Files.readString(Corpus.EXTERNAL.resolve("golden/" + in.getFileName() + ".stats.txt"));
        if (golden.contains("Aggregated stats:")) {
            boolean pipe;
            try (PerfDataFile f = PerfDataFile.open(in)) {
                pipe = f.isPipe();
            }
            assertEquals(perfCounts(golden, !pipe), perfCounts(stats.out(), !pipe));
        }
    }
}
