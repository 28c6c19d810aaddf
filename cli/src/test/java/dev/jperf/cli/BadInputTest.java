package dev.jperf.cli;

import static dev.jperf.report.CorpusFixture.CORPUS;
import static dev.jperf.report.CorpusFixture.EXTERNAL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.PerfOracle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damaged or missing input: one line on stderr, never a stack trace; what is sound is reported. */
class BadInputTest {

    private static Path damaged(String n) {
        return CORPUS.resolve("h-damaged/" + n);
    }

    @Test
    void unreadableFileIsOneLineAndNonZeroExit() {
        for (String n : new String[] {"short-header.data", "bad-magic.data", "no-such-file.data"}) {
            Run r = Run.of("report", "--stats", "-i", damaged(n).toString());
            assertEquals(255, r.rc(), n);
            assertEquals("", r.out(), n);
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("jperf report: " + damaged(n)), r.err());
        }
    }

    /**
     * An input that cannot be opened (missing, empty, not perf.data, cut inside its header): every
     * reading command exits with perf's code for it (its session fails to open: -1, 255), after
     * one line.
     */
    @Test
    void unopenableInputExitsAsPerfDoesInEveryReadingCommand(@TempDir Path dir) throws Exception {
        PerfOracle.assumeInstalled();
        Path empty = Files.createFile(dir.resolve("empty.data"));
        Path[] inputs = {dir.resolve("missing.data"), empty, damaged("short-header.data"), damaged("bad-magic.data")};
        for (Path in : inputs) {
            String i = in.toString();
            String out = dir.resolve("out.data").toString();
            String[][] commands = {{"report", "--stdio", "-i", i}, {"script", "-i", i}, {"annotate", "--stdio", "-i", i},
                {"inject", "-i", i, "-o", out}, {"evlist", "-i", i}, {"buildid-list", "-i", i}, {"diff", i, i},
                {"data", "convert", "--to-json", dir.resolve("out.json").toString(), "-f", "-i", i}};
            for (String[] c : commands) {
                String what = String.join(" ", c);
                PerfOracle.Result perf = PerfOracle.perf(c);
                Run r = Run.of(c);
                assertEquals(perf.rc(), r.rc(), what + ": perf said " + perf.err() + ", jperf " + r.err());
                assertEquals("", r.out(), what);
                assertEquals(1, r.err().lines().count(), what + ": " + r.err());
                assertTrue(r.err().contains(in.getFileName().toString()), what + ": " + r.err());
            }
        }
    }

    @Test
    void callGraphsAskedOfAFileWithoutCallchainsIsAnError() {
        // perf: "Selected -g or --branch-history. But no callchain or branch data." and no rows;
        // -g none, -G alone and --children are no error there either
        String f = CORPUS.resolve("c-process/perf.data").toString();
        for (String g : new String[] {"-g", "-gcaller", "--call-graph=folded"}) {
            Run r = Run.of("report", "-i", f, "--stdio", g);
            assertEquals(1, r.rc(), g);
            assertEquals("", r.out(), g);
            assertEquals("jperf report: " + f + ": -g asks for call graphs but the samples have no callchains"
                    + " (recorded without -g?)", r.err().strip(), g);
        }
        for (String ok : new String[] {"-gnone", "-G", "--children"}) {
            Run r = Run.of("report", "-i", f, "--stdio", ok);
            assertEquals(0, r.rc(), ok + ": " + r.err());
            assertTrue(r.out().contains("%"), ok);
        }
    }

    /**
     * Each kind of damage in corpus/h-damaged, through every reading command: exit 0, everything
     * before the damage printed, and exactly one warning line naming the file, the offset where
     * reading stopped and why. From a path, and (pipe mode) from stdin.
     */
    @Test
    void damageIsOneWarningLineInEveryReadingCommand() throws Exception {
        String[][] kinds = {
            {"truncated.data", "records after 0x9fb38 are missing (truncated file?)"},
            {"bad-data-size.data", "the feature index table starts at 0x25980, 8 bytes earlier"},
            {"pipe-truncated.data", "offset 0x55d54 (SAMPLE, size 56) runs past the end of the data"},
        };
        String[][] commands = {{"report", "--stdio", "--sort", "sym"}, {"report", "--stats"}, {"script"}, {"annotate"},
            {"dump"}, {"report", "--header"}};
        for (String[] kind : kinds) {
            Path file = damaged(kind[0]);
            for (String[] c : commands) {
                String[] args = java.util.stream.Stream.concat(java.util.Arrays.stream(c),
                        java.util.stream.Stream.of("-i", file.toString())).toArray(String[]::new);
                Run r = Run.of(args);
                String what = kind[0] + " " + String.join(" ", c);
                assertEquals(0, r.rc(), what + ": " + r.err());
                assertTrue(!r.out().isEmpty(), what);
                // annotate also says, as perf does, that kernel functions need the recorded vmlinux
                List<String> err = r.err().lines().filter(l -> !l.startsWith("jperf annotate: cannot annotate ")).toList();
                assertEquals(1, err.size(), what + ": " + r.err());
                assertTrue(err.get(0).startsWith("warning: " + file + ": ") && err.get(0).contains(kind[1]), what + ": " + r.err());
            }
        }
        // the same stream on stdin
        Run r = Run.withStdin(damaged("pipe-truncated.data"), "report", "--stats", "-i", "-");
        assertEquals(0, r.rc(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("warning: stdin: the stream ends inside a record (offset 0x55d54"), r.err());
        // --header-only of a file whose data section runs past its end says so before any record is read
        Run h = Run.of("report", "--header-only", "-i", damaged("truncated.data").toString());
        assertEquals(0, h.rc());
        assertEquals(damagedLine("truncated.data", "the records past the end are missing (truncated file?)"), h.err().strip());
    }

    private static String damagedLine(String n, String tail) {
        return "warning: " + damaged(n) + ": data section claims 1307504 bytes but the file ends at 654164: " + tail;
    }

    @Test
    void truncatedFileCountsEveryWholeRecord() {
        Run r = Run.of("report", "--stats", "-i", damaged("truncated.data").toString());
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("SAMPLE events:      11027"), r.out());
        assertEquals(damagedLine("truncated.data", "records after 0x9fb38 are missing (truncated file?)"), r.err().strip());
    }

    @Test
    void corruptedPipeStopsWithAWarning() {
        Path p = EXTERNAL.resolve("perf_data_converter/perf.data.piped.corrupted.zero_size_sample-3.2");
        Run r = Run.of("report", "--stats", "-i", p.toString());
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("Aggregated stats:"));
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains("size 0"), r.err());
    }
}
