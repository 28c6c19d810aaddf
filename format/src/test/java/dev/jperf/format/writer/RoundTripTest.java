package dev.jperf.format.writer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.PerfOracle;
import dev.jperf.format.feature.FeatureSection;
import dev.jperf.format.feature.Features;
import dev.jperf.format.feature.RawFeature;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every corpus recording, read with the reader and written back with the writer, reads the same
 * in Linux perf 6.1: {@code report --stdio --sort sym} and {@code report --header-only -I} of the
 * copy equal those of the original. The copy gets the original's mtime, which perf prints as
 * "captured on". A pipe-mode original differs only in how perf frames a header: for a pipe it
 * prints data offset, data size and feat offset as 0 and closes the "# ========" block right after
 * them; for a file it prints the real layout, and closes the block after a "# missing features"
 * line it prints for files only. Those lines are left out of the comparison for pipe inputs.
 */
class RoundTripTest {
    @TempDir
    Path tmp;

    static Stream<String> cases() throws Exception {
        try (Stream<Path> dirs = Files.list(Corpus.CORPUS)) {
            return dirs.filter(d -> Files.isRegularFile(d.resolve("perf.data")))
                    .map(d -> d.getFileName().toString()).sorted().collect(Collectors.toList()).stream();
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void copyReadsTheSameInPerf(String name) throws Exception {
        Path in = Corpus.CORPUS.resolve(name).resolve("perf.data");
        Path out = tmp.resolve("perf.data");
        PerfDataCopier.Result r = PerfDataCopier.copy(in, out);
        assertEquals(List.of(), r.warnings());
        Files.setLastModifiedTime(out, Files.getLastModifiedTime(in));

        boolean pipe;
        try (PerfDataFile orig = PerfDataFile.open(in); PerfDataFile copy = PerfDataFile.open(out)) {
            pipe = orig.isPipe();
            assertTrue(!copy.isPipe());
            assertEquals(orig.events().size(), copy.events().size());
            for (int i = 0; i < orig.events().size(); i++) {
                assertEquals(orig.events().get(i).name(), copy.events().get(i).name());
                assertArrayEquals(orig.events().get(i).ids(), copy.events().get(i).ids());
            }
            assertEquals(orig.featureBits(), copy.featureBits());
            assertEquals(List.of(), copy.warnings());
        }

        PerfOracle.assumeInstalled();
        PerfOracle.Result origHeader = PerfOracle.headerOnly(in);
        PerfOracle.Result copyHeader = PerfOracle.headerOnly(out);
        assertEquals(0, copyHeader.rc(), copyHeader.err());
        assertEquals(layoutBlind(origHeader.out(), pipe), layoutBlind(copyHeader.out(), pipe));
        PerfOracle.Result origReport = PerfOracle.reportSortSym(in);
        PerfOracle.Result copyReport = PerfOracle.reportSortSym(out);
        assertEquals(0, copyReport.rc(), copyReport.err());
        assertTrue(copyReport.out().contains("# Samples:"), copyReport.out());
        assertEquals(origReport.out(), copyReport.out());
    }

    /**
     * The recorder's path: every feature given to the writer as a typed value (decoded by the
     * feature codecs, encoded again), none as raw bytes, and perf still prints the same header.
     */
    @ParameterizedTest
    @MethodSource("cases")
    void typedFeaturesReadTheSameInPerf(String name) throws Exception {
        Path in = Corpus.CORPUS.resolve(name).resolve("perf.data");
        Path fileMode = tmp.resolve("file-mode.data");
        PerfDataCopier.copy(in, fileMode);
        CorpusInput c = CorpusInput.read(fileMode);
        Path out = tmp.resolve("perf.data");
        boolean pipe;
        try (PerfDataFile orig = PerfDataFile.open(in); PerfDataWriter w = PerfDataWriter.create(out, c.events())) {
            pipe = orig.isPipe();
            w.append(c.records().duplicate());
            Features features = orig.features();
            assertEquals(List.of(), features.warnings());
            assertEquals(orig.featureBits(), List.copyOf(features.bits()));
            for (FeatureSection f : features.sections()) {
                assertFalse(f instanceof RawFeature, "feature " + f.bit() + " has no codec");
                w.setFeature(f);
            }
        }
        Files.setLastModifiedTime(out, Files.getLastModifiedTime(in));
        PerfOracle.assumeInstalled();
        PerfOracle.Result copyHeader = PerfOracle.headerOnly(out);
        assertFalse(copyHeader.err().contains("invalid"), copyHeader.err());
        assertEquals(layoutBlind(PerfOracle.headerOnly(in).out(), pipe), layoutBlind(copyHeader.out(), pipe));
        assertEquals(PerfOracle.reportSortSym(in).out(), PerfOracle.reportSortSym(out).out());
    }

    /** The header without the lines a pipe-mode original cannot share with its file-mode copy. */
    private static String layoutBlind(String header, boolean pipe) {
        if (!pipe) {
            return header;
        }
        return header.lines().filter(l -> !l.startsWith("# data offset") && !l.startsWith("# data size")
                && !l.startsWith("# feat offset") && !l.startsWith("# missing features:")
                && !l.equals("# ========") && !l.equals("#")).collect(Collectors.joining("\n"));
    }
}
