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
            // spec §4 says 7,895 (an older recording); spec/verify/pdump.py --stats counts 11027 in this file
            assertEquals(11027, samples(f));
            List<String> w = f.warnings();
            oneLine(w, p.toString());
            assertEquals(2, w.size(), w.toString());
            assertTrue(w.get(0).contains("runs past the end of the file"), w.get(0));
            assertTrue(w.get(1).contains("0x9fb38") && w.get(1).contains("size 56"), w.get(1));
            assertTrue(f.featureBits().isEmpty());
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

    @Test
    void dataSizeTooBigStopsAtTheBogusRecord() {
        Path p = damaged("bad-data-size.data");
        try (PerfDataFile f = PerfDataFile.open(p)) {
            assertEquals(3818, samples(f), "every sample of c-process");
            List<String> w = f.warnings();
            oneLine(w, p.toString());
            assertTrue(w.stream().anyMatch(x -> x.contains("0x25980")), w.toString());
            // the shifted feature table is one line, not one per feature
            assertEquals(2, w.size(), w.toString());
            assertTrue(w.get(0).contains("feature index table") && w.get(0).contains("looks damaged"), w.get(0));
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
