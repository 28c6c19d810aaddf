package dev.jperf.format.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.PerfOracle;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.SampleRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RecordingFile#write}: perf reads what it writes, and sees exactly the records kept (perf
 * script of the filtered file is perf script of the original, less the samples left out).
 */
class RecordingFileWriteTest {
    private static final String FIELDS = "comm,tid,time,event,ip,sym";

    @Test
    void perfSeesOnlyTheKeptSamples(@TempDir Path dir) throws Exception {
        PerfOracle.assumeInstalled();
        Path in = Corpus.CORPUS.resolve("c-process/perf.data");
        Assumptions.assumeTrue(Files.isRegularFile(in), "no corpus at " + Corpus.CORPUS);
        Corpus.installBinaries();

        // the tid with the most samples, and every other record
        int tid;
        List<String> warnings = new ArrayList<>();
        try (RecordingFile f = RecordingFile.open(in, warnings::add)) {
            tid = busiestTid(f);
            f.write(dir.resolve("kept.data"), r -> !(r instanceof SampleRecord s) || s.tid() == tid);
            f.write(dir.resolve("all.data"), r -> true);
        }
        assertEquals(List.of(), warnings);

        List<String> original = script(in);
        List<String> expected = original.stream().filter(l -> tidOf(l) == tid).toList();
        assertTrue(expected.size() > 0 && expected.size() < original.size(), "a filter that keeps some samples, not all");
        assertEquals(expected, script(dir.resolve("kept.data")));
        assertEquals(original, script(dir.resolve("all.data")));
    }

    @Test
    void anExistingOutputIsKeptAsOld(@TempDir Path dir) throws Exception {
        Path in = Corpus.CORPUS.resolve("c-process/perf.data");
        Assumptions.assumeTrue(Files.isRegularFile(in), "no corpus at " + Corpus.CORPUS);
        Path out = dir.resolve("out.data");
        Files.writeString(out, "mine");
        try (RecordingFile f = RecordingFile.open(in)) {
            f.write(out, r -> false);
        }
        assertEquals("mine", Files.readString(dir.resolve("out.data.old")));
        try (RecordingFile w = RecordingFile.open(out)) {
            assertFalse(w.records().iterator().hasNext(), "no records kept");
        }
    }

    private static int busiestTid(RecordingFile f) {
        java.util.Map<Integer, Integer> counts = new java.util.HashMap<>();
        for (PerfRecord r : f.records()) {
            if (r instanceof SampleRecord s) {
                counts.merge(s.tid(), 1, Integer::sum);
            }
        }
        return counts.entrySet().stream().max(java.util.Map.Entry.comparingByValue()).orElseThrow().getKey();
    }

    private static List<String> script(Path file) throws Exception {
        PerfOracle.Result r = PerfOracle.perf("script", "-i", file.toString(), "-F", FIELDS,
                "--kallsyms", Corpus.kallsyms().toString());
        assertEquals(0, r.rc(), r.err());
        return r.out().lines().toList();
    }

    /** The tid column of a perf script line ({@code comm tid time: ...}). */
    private static int tidOf(String line) {
        String[] w = line.trim().split("\\s+");
        for (int i = 1; i < w.length; i++) {
            if (w[i].endsWith(":")) {
                return Integer.parseInt(w[i - 1]);
            }
        }
        throw new AssertionError("no tid in: " + line);
    }
}
