package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.PerfDataFile;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code jperf evlist} and {@code jperf buildid-list} against perf 6.1 run live on every file-mode
 * corpus and external file perf reads: byte for byte, with each of evlist's views.
 */
class EvlistBuildidListTest {
    @BeforeAll
    static void perfIsHere() {
        dev.jperf.format.PerfOracle.assumeInstalled();
    }

    /** The file-mode files (perf's evlist and buildid-list read only a pipe's first records: not compared). */
    static Stream<Arguments> files() throws Exception {
        List<Arguments> out = new ArrayList<>();
        List<Path> all = new ArrayList<>(Corpus.corpusFiles());
        all.addAll(Corpus.externalFiles());
        for (Path f : all) {
            try (PerfDataFile pf = PerfDataFile.open(f)) {
                if (!pf.isPipe()) {
                    out.add(Arguments.of(f));
                }
            }
        }
        assumeTrue(!out.isEmpty(), "no corpus or external files at " + Corpus.CORPUS);
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void evlistAsPerf(Path file) throws Exception {
        for (List<String> opts : List.of(List.<String>of(), List.of("-v"), List.of("-F"), List.of("-g"), List.of("--trace-fields"),
                List.of("-v", "--trace-fields"))) {
            List<String> perf = new ArrayList<>(List.of("perf", "evlist", "-i", file.toString()));
            perf.addAll(opts);
            StatTest.Result p = StatTest.exec(perf);
            assumeTrue(p.rc() == 0, "perf 6.1 cannot read " + file.getFileName() + ": " + p.err().strip());
            List<String> ours = new ArrayList<>(List.of("evlist", "-i", file.toString()));
            ours.addAll(opts);
            Run r = Run.of(ours.toArray(String[]::new));
            assertEquals(0, r.rc(), r.err());
            assertEquals(p.out(), r.out(), file.getFileName() + " " + opts);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void buildidListAsPerf(Path file) throws Exception {
        StatTest.Result p = StatTest.exec("perf", "buildid-list", "-i", file.toString());
        assumeTrue(p.rc() == 0, "perf 6.1 cannot read " + file.getFileName() + ": " + p.err().strip());
        Run r = Run.of("buildid-list", "-i", file.toString());
        if (p.out().startsWith(" ".repeat(40))) {
            // no HEADER_BUILD_ID: perf lists the DSOs its pass over the samples met, jperf says it does not
            assertEquals(1, r.rc(), r.out());
            assertTrue(r.err().contains("no HEADER_BUILD_ID"), r.err());
            return;
        }
        assertEquals(0, r.rc(), r.err());
        assertEquals(p.out(), r.out(), file.getFileName().toString());
    }

    /** An ELF file's own build-id, and the running kernel's ({@code -k}), as perf prints them. */
    @Test
    void elfFileAndRunningKernel() throws Exception {
        String self = Path.of(System.getProperty("java.home"), "bin", "java").toRealPath().toString();
        StatTest.Result p = StatTest.exec("perf", "buildid-list", "-i", self);
        Run r = Run.of("buildid-list", "-i", self);
        assertEquals(p.rc(), r.rc(), r.err());
        assertEquals(p.out(), r.out());
        StatTest.Result pk = StatTest.exec("perf", "buildid-list", "-k");
        Run k = Run.of("buildid-list", "-k");
        assertEquals(pk.out(), k.out());
        assertEquals(pk.rc() == 0 ? 0 : 1, k.rc(), k.err());
    }

    /** perf's usage rule: -g with -v or -F is a usage error (129). */
    @Test
    void groupWithOtherViewsIsAUsageError() throws Exception {
        Run r = Run.of("evlist", "-g", "-v", "-i", Corpus.corpusFiles().get(0).toString());
        assertEquals(129, r.rc());
        assertTrue(r.err().contains("--group option is not compatible with other options"), r.err());
    }
}
