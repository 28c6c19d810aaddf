package dev.jperf.cli;

import static dev.jperf.report.CorpusFixture.CORPUS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.RecordStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jperf inject -i IN -o OUT}: the copy holds the same events and records; bad input is one line. */
class InjectTest {
    @TempDir
    Path tmp;

    static long records(Path f) {
        try (PerfDataFile p = PerfDataFile.open(f); RecordStream r = p.records()) {
            long n = 0;
            while (r.hasNext()) {
                r.next();
                n++;
            }
            return n;
        }
    }

    @Test
    void pipeInputBecomesAFileWithTheSameRecords() {
        Path in = CORPUS.resolve("f-pipe/perf.data");
        Path out = tmp.resolve("perf.data");
        Run r = Run.of("inject", "-i", in.toString(), "-o", out.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.out());
        assertEquals("", r.err());
        try (PerfDataFile orig = PerfDataFile.open(in); PerfDataFile copy = PerfDataFile.open(out)) {
            assertTrue(orig.isPipe());
            assertFalse(copy.isPipe());
            assertEquals(orig.events().size(), copy.events().size());
            for (int i = 0; i < orig.events().size(); i++) {
                assertEquals(orig.events().get(i).name(), copy.events().get(i).name());
                assertArrayEquals(orig.events().get(i).ids(), copy.events().get(i).ids());
            }
            assertEquals(orig.featureBits(), copy.featureBits());
            // The pipe's HEADER_ATTR records (one per event) and HEADER_FEATURE records (one per
            // feature, and the end mark) moved into the header.
            long headerRecords = orig.events().size() + orig.featureBits().size() + 1;
            assertEquals(records(in) - headerRecords, records(out));
        }
    }

    @Test
    void existingOutputIsKeptAsOld() throws Exception {
        Path in = CORPUS.resolve("c-process/perf.data");
        Path out = tmp.resolve("perf.data");
        Files.writeString(out, "previous");
        Run r = Run.of("inject", "-i", in.toString(), "-o", out.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals("previous", Files.readString(tmp.resolve("perf.data.old")));
        assertEquals(records(in), records(out));
    }

    @Test
    void damagedInputWarnsAndIsCopied() {
        Path in = CORPUS.resolve("h-damaged/truncated.data");
        Path out = tmp.resolve("perf.data");
        Run r = Run.of("inject", "-i", in.toString(), "-o", out.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        r.err().lines().forEach(l -> assertTrue(l.startsWith("warning: " + in), l));
        assertEquals(records(in), records(out));
    }

    @Test
    void badInputIsOneLine() {
        Path out = tmp.resolve("perf.data");
        Path bad = CORPUS.resolve("h-damaged/bad-magic.data");
        Run r = Run.of("inject", "-i", bad.toString(), "-o", out.toString());
        assertEquals(1, r.rc());
        assertEquals("jperf inject: " + bad + ": not a perf.data file (bad magic)\n", r.err());

        r = Run.of("inject", "-i", CORPUS.resolve("c-process/perf.data").toString(), "-o",
                tmp.resolve("no-such-dir/perf.data").toString());
        assertEquals(1, r.rc());
        assertEquals("jperf inject: " + tmp.resolve("no-such-dir/perf.data") + ": cannot create: No such file or directory\n",
                r.err());

        r = Run.of("inject", "-i", bad.toString());
        assertEquals(1, r.rc());
        assertEquals("jperf inject: a file-mode perf.data cannot be written to a pipe: give -o <file>\n", r.err());
    }

    /** {@code perf record -o - | jperf inject -o perf.data}: the stream on stdin becomes a file. */
    @Test
    void pipeOnStdinBecomesAFile() throws Exception {
        Path in = CORPUS.resolve("f-pipe/perf.data");
        Path fromFile = tmp.resolve("from-file.data");
        assertEquals(0, Run.of("inject", "-i", in.toString(), "-o", fromFile.toString()).rc());
        Path out = tmp.resolve("perf.data");
        Run r = Run.withStdin(in, "inject", "-o", out.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.err());
        assertArrayEquals(Files.readAllBytes(fromFile), Files.readAllBytes(out));

        r = Run.withStdin(CORPUS.resolve("c-process/perf.data"), "inject", "-o", out.toString());
        assertEquals(1, r.rc());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("jperf inject: stdin: "), r.err());
    }
}
