package dev.jperf.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.record.SampleRecord;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** corpus/h-damaged: what is sound is returned, problems are one line each, nothing loops or crashes. */
class DamagedFilesTest {

    private static Path damaged(String name) {
        return Corpus.CORPUS.resolve("h-damaged/" + name);
    }

    private static long samples(PerfDataFile f) {
        long n = 0;
        try (RecordStream rs = f.records()) {
            while (rs.hasNext()) {
                if (rs.next() instanceof SampleRecord) {
                    n++;
                }
            }
        }
        return n;
    }

    private static void oneLine(List<String> warnings, String file) {
        for (String w : warnings) {
            assertFalse(w.contains("\n"), w);
            assertTrue(w.startsWith(file), w);
        }
    }

    @Test
    void truncatedKeepsEveryWholeRecord() {
        Path p = damaged("truncated.data");
        try (PerfDataFile f = PerfDataFile.open(p)) {
            // before reading: one line for the damage, the missing records not placed yet
            assertEquals(List.of(p + ": data section claims 1307504 bytes but the file ends at 654164: the records past the"
                    + " end are missing (truncated file?)"), f.warnings());
            // spec §4 says 7,895 (an older recording); spec/verify/pdump.py --stats counts 11027 in this file
            assertEquals(11027, samples(f));
            assertEquals(List.of(p + ": data section claims 1307504 bytes but the file ends at 654164: records after 0x9fb38"
                    + " are missing (truncated file?)"), f.warnings());
            assertTrue(f.featureBits().isEmpty());
        }
    }

    /** Every record before the damage is counted: the same counts as the intact prefix of the file. */
    @Test
    void truncatedCountsEqualTheIntactPrefix(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path p = damaged("truncated.data");
        byte[] b = java.util.Arrays.copyOf(Files.readAllBytes(p), 0x9fb38);
        java.nio.ByteBuffer h = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        h.putLong(48, 0x9fb38 - h.getLong(40)); // data.size: exactly the whole records
        for (int i = 72; i < 104; i++) {
            b[i] = 0; // no feature sections
        }
        Path prefix = dir.resolve("prefix.data");
        Files.write(prefix, b);
        try (PerfDataFile f = PerfDataFile.open(p); PerfDataFile intact = PerfDataFile.open(prefix)) {
            assertEquals(RecordCountsTest.count(intact), RecordCountsTest.count(f));
            assertEquals(List.of(), intact.warnings());
        }
    }

    @Test
    void featureOffsetPastEofMakesOnlyThatFeatureUnavailable() {
        Path p = damaged("bad-feature-offset.data");
        Path orig = Corpus.CORPUS.resolve("a-system-wide-bpf/perf.data");
        try (PerfDataFile f = PerfDataFile.open(p); PerfDataFile o = PerfDataFile.open(orig)) {
            assertTrue(f.featureBody(2).isEmpty(), "HEADER_BUILD_ID");
            assertEquals(o.featureBits(), f.featureBits());
            for (int bit : o.featureBits()) {
                if (bit != 2) {
                    assertEquals(o.featureBody(bit).get().size(), f.featureBody(bit).get().size());
                }
            }
            assertEquals(1, f.warnings().size(), f.warnings().toString());
            assertTrue(f.warnings().get(0).contains("past the end of the file"));
            Map<String, Long> counts = RecordCountsTest.count(f);
            assertEquals(Corpus.aggregated(orig.resolveSibling("stats.txt")), new java.util.TreeMap<>(counts).descendingMap()
                    .entrySet().stream().collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
        }
    }

    @Test
    void featureOffsetIntoDataIsUnavailable() {
        for (String[] c : new String[][] {{"bpf-prog-info-offset-into-data.data", "25"},
            {"cpu-topology-offset-into-data.data", "13"}}) {
            Path p = damaged(c[0]);
            try (PerfDataFile f = PerfDataFile.open(p)) {
                int bit = Integer.parseInt(c[1]);
                assertTrue(f.featureBody(bit).isEmpty(), c[0]);
                assertTrue(f.featureBits().contains(bit));
                assertEquals(1, f.warnings().size(), f.warnings().toString());
                assertTrue(f.warnings().get(0).contains("points into the data section"), f.warnings().get(0));
                assertTrue(samples(f) > 3000);
                assertEquals(1, f.warnings().size(), "records read cleanly: " + f.warnings());
            }
        }
    }

    /** A stream cut mid-record: the same counts as its intact prefix (the bytes before the cut record). */
    @Test
    void pipeTruncatedCountsEqualTheIntactPrefix(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path p = damaged("pipe-truncated.data");
        Path prefix = dir.resolve("prefix.data");
        Files.write(prefix, java.util.Arrays.copyOf(Files.readAllBytes(p), 0x55d54));
        try (PerfDataFile f = PerfDataFile.open(p); PerfDataFile intact = PerfDataFile.open(prefix)) {
            assertEquals(RecordCountsTest.count(intact), RecordCountsTest.count(f));
            assertEquals(List.of(), intact.warnings());
            assertEquals(1, f.warnings().size(), f.warnings().toString());
        }
    }

    /** A feature section pointing into the data loses that feature only: every record is counted. */
    @Test
    void featureOffsetIntoDataKeepsEveryRecord() {
        for (String[] c : new String[][] {{"bpf-prog-info-offset-into-data.data", "d-bpf-storm"},
            {"cpu-topology-offset-into-data.data", "c-process"}}) {
            try (PerfDataFile f = PerfDataFile.open(damaged(c[0]));
                    PerfDataFile o = PerfDataFile.open(Corpus.CORPUS.resolve(c[1]).resolve("perf.data"))) {
                assertEquals(RecordCountsTest.count(o), RecordCountsTest.count(f), c[0]);
            }
        }
    }

    /** data.size 8 bytes too large: the feature table is found where it is, every record and feature read. */
    @Test
    void dataSizeTooBigFindsTheFeatureTable() {
        Path p = damaged("bad-data-size.data");
        Path orig = Corpus.CORPUS.resolve("c-process/perf.data");
        try (PerfDataFile f = PerfDataFile.open(p); PerfDataFile o = PerfDataFile.open(orig)) {
            assertEquals(3818, samples(f), "every sample of c-process");
            assertEquals(List.of(p + ": data section claims 153728 bytes but the feature index table starts at 0x25980,"
                    + " 8 bytes earlier: records read up to there, features from that table (damaged data.size?)"), f.warnings());
            assertEquals(o.featureBits(), f.featureBits());
            for (int bit : o.featureBits()) {
                assertEquals(o.featureBody(bit).get().size(), f.featureBody(bit).get().size(), "feature " + bit);
            }
            assertEquals(RecordCountsTest.count(o), RecordCountsTest.count(f));
        }
    }

    /** A killed recorder leaves data.size = 0 and no feature sections: read records up to EOF. */
    @Test
    void dataSizeZeroReadsToTheEndOfTheFile(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path orig = Corpus.CORPUS.resolve("c-process/perf.data");
        byte[] b;
        long dataEnd;
        try (PerfDataFile f = PerfDataFile.open(orig)) {
            dataEnd = f.dataSection().end();
        }
        b = java.util.Arrays.copyOf(Files.readAllBytes(orig), (int) dataEnd);
        java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(48, 0);
        Path killed = dir.resolve("killed.data");
        Files.write(killed, b);
        try (PerfDataFile f = PerfDataFile.open(killed)) {
            assertEquals(3818, samples(f));
            assertTrue(f.featureBits().isEmpty());
            assertEquals(1, f.warnings().size(), f.warnings().toString());
            assertTrue(f.warnings().get(0).contains("data size is 0"), f.warnings().get(0));
            assertEquals(Corpus.aggregated(orig.resolveSibling("stats.txt")).get("TOTAL"), RecordCountsTest.count(f).get("TOTAL"));
        }
    }

    @Test
    void unreadableFilesFailWithOneLine() {
        for (String n : List.of("short-header.data", "bad-magic.data")) {
            Path p = damaged(n);
            PerfDataException e = assertThrows(PerfDataException.class, () -> PerfDataFile.open(p));
            assertTrue(e.getMessage().startsWith(p.toString()) && !e.getMessage().contains("\n"), e.getMessage());
        }
        Path missing = damaged("no-such.data");
        PerfDataException e = assertThrows(PerfDataException.class, () -> PerfDataFile.open(missing));
        assertEquals(missing + ": No such file or directory", e.getMessage());
    }

    @Test
    void pipeTruncatedKeepsEveryWholeRecord() throws IOException {
        Path p = damaged("pipe-truncated.data");
        long fromFile;
        try (PerfDataFile f = PerfDataFile.open(p)) {
            assertTrue(f.isPipe());
            fromFile = samples(f);
            assertEquals(1, f.warnings().size(), f.warnings().toString());
            assertTrue(f.warnings().get(0).contains("0x55d54"), f.warnings().get(0));
        }
        assertTrue(fromFile > 5000, "samples: " + fromFile);
        try (PerfDataFile f = PerfDataFile.open("stdin", new ByteArrayInputStream(Files.readAllBytes(p)))) {
            assertEquals(fromFile, samples(f));
            assertEquals(1, f.warnings().size(), f.warnings().toString());
            assertTrue(f.warnings().get(0).contains("0x55d54"), f.warnings().get(0));
        }
    }
}
