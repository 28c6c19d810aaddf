package dev.jperf.report.annotate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jperf.format.PerfDataFile;
import dev.jperf.report.CorpusFixture;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What a BPF engineer sees: stdio rows, JSON shape, symbol filter, pipe-mode notice. */
class AnnotateOutputTest {
    private static String run(String kase, String symbol, boolean json, ByteArrayOutputStream err) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PerfDataFile f = PerfDataFile.open(CorpusFixture.data(kase))) {
            Annotate.run(f, new Annotate.Options(symbol, json, CorpusFixture.kallsyms(), CorpusFixture.buildIdDir()), out,
                    new PrintStream(err, true, StandardCharsets.UTF_8));
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void stdioShowsPercentLineAndSourcePerFunction() {
        String s = run("e-preloaded-bpf", "lines_hot", false, new ByteArrayOutputStream());
        assertTrue(s.contains("Source code of bpf_prog_d8e0d1431ff1b30f_lines_hot for cpu-clock:ppp (5112 samples"), s);
        // line 40 = three line records (18 + 327 + 1571 samples): 1916 of 5112
        assertTrue(s.contains("   37.48 :    40:  \t\tc += (h & 0xff) * (i + 1);"), s);
        assertTrue(s.contains("         :    43:  \ts->x = x;"), s);
        assertFalse(s.contains("mix_a"), "the filter keeps only lines_hot");
    }

    @Test
    void subprogramBreakdownAndFilterBySubprogramName() {
        String s = run("a-system-wide-bpf", "mix_b", false, new ByteArrayOutputStream());
        assertTrue(s.contains("       2295   31.96%  mix_b             bpf_prog_6e4aaf912f5283db_mix_b"), s);
        assertTrue(s.contains("Source code of bpf_prog_6e4aaf912f5283db_mix_b"), s);
        assertFalse(s.contains("Source code of bpf_prog_904d8356ffe3e4ed_mix_a"), s);
    }

    @Test
    void unknownSymbolSaysSoOnStderr() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        run("a-system-wide-bpf", "no_such_fn", false, err);
        assertEquals("jperf annotate: no samples in a JITed BPF function or program named no_such_fn\n",
                err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void jsonHasSourceLinesAndLineRecords() throws Exception {
        JsonNode j = new ObjectMapper().readTree(run("g-two-events", null, true, new ByteArrayOutputStream()));
        assertTrue(j.get("line_info").asBoolean());
        assertEquals(2, j.get("events").size());
        JsonNode fold = j.get("events").get(1).get("programs").get(0).get("functions").get(3);
        assertEquals("fold_c", fold.get("name").asText());
        long sum = 0;
        for (JsonNode l : fold.get("source_lines")) {
            sum += l.get("samples").asLong();
        }
        assertEquals(fold.get("samples").asLong(), sum);
        assertTrue(fold.get("line_records").size() >= fold.get("source_lines").size());
    }

    @Test
    void pipeModeSaysThereIsNoLineInfoInOneLine() {
        String s = run("f-pipe", null, false, new ByteArrayOutputStream());
        // the BPF part's first line (the user-space functions' disassembly comes before it)
        String first = s.lines().filter(l -> l.startsWith("#")).findFirst().orElseThrow();
        assertTrue(first.startsWith("# no BPF line info in ") && first.contains("pipe mode"), first);
        assertTrue(s.contains("       1373  bpf_prog_904d8356ffe3e4ed_mix_a"), s);
    }
}
