package dev.jperf.cli;

import static dev.jperf.report.CorpusFixture.CORPUS;
import static dev.jperf.report.CorpusFixture.EXTERNAL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Damaged or missing input: one line on stderr, never a stack trace; what is sound is reported. */
class BadInputTest {

    private static Path damaged(String n) {
        return CORPUS.resolve("h-damaged/" + n);
    }

    @Test
    void unreadableFileIsOneLineAndNonZeroExit() {
        for (String n : new String[] {"short-header.data", "bad-magic.data", "no-such-file.data"}) {
            Run r = Run.of("report", "--stats", "-i", damaged(n).toString());
            assertEquals(1, r.rc(), n);
            assertEquals("", r.out(), n);
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("jperf report: " + damaged(n)), r.err());
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

    @Test
    void truncatedFileGivesStatsAndOneWarningLinePerProblem() {
        Run r = Run.of("report", "--stats", "-i", damaged("truncated.data").toString());
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("SAMPLE events:      11027"), r.out());
        assertEquals(2, r.err().lines().count(), r.err());
        r.err().lines().forEach(l -> assertTrue(l.startsWith("warning: " + damaged("truncated.data")), l));
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
