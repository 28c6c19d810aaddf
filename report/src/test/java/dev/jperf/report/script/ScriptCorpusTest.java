package dev.jperf.report.script;

import static dev.jperf.report.CorpusFixture.CORPUS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jperf.format.PerfDataFile;
import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code jperf script --show-bpf-events -F comm,pid,tid,cpu,time,event,ip,sym,dso} against perf's
 * script.txt of every corpus case (script-nocpu.txt without cpu for per-process recordings), line
 * by line over the golden's lines (it keeps the first 20000 when perf's output was large).
 *
 * <p>One environment difference is allowed: a {@code [vdso]} address perf named from the
 * recording's vdso image, which is not on this machine (another boot's build-id; perf here prints
 * {@code [unknown]} too). Such lines must still agree on everything but the symbol.
 */
class ScriptCorpusTest {
    static final String FIELDS = "comm,pid,tid,cpu,time,event,ip,sym,dso";

    @BeforeAll
    static void setUp() {
        CorpusFixture.installBinaries();
    }

    static Stream<Path> cases() throws IOException {
        try (Stream<Path> s = Files.list(CORPUS)) {
            return s.filter(d -> Files.exists(d.resolve("script.txt")) || Files.exists(d.resolve("script.txt.xz"))
                    || Files.exists(d.resolve("script-nocpu.txt"))).sorted().toList().stream();
        }
    }

    static String run(Path dir, String fields, boolean json) {
        return run(dir, Script.Options.defaults().withBuildIdDir(CorpusFixture.buildIdDir()).withSymbols(CorpusFixture.kallsyms(), null).withFields(fields)
                .withShow(Script.Show.BPF, true).withJson(json));
    }

    static String run(Path dir, Script.Options o) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PerfDataFile f = PerfDataFile.open(dir.resolve("perf.data"))) {
            Script.run(f, o, out);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    static List<String> golden(Path dir) {
        return Stream.of("script-nocpu.txt", "script.txt", "script.txt.xz").map(dir::resolve).filter(Files::exists)
                .findFirst().map(CorpusFixture::lines).orElseThrow();
    }

    @ParameterizedTest
    @MethodSource("cases")
    void everyLineAgreesWithPerf(Path dir) throws Exception {
        boolean nocpu = Files.exists(dir.resolve("script-nocpu.txt"));
        if (nocpu) {
            // perf refuses cpu for files without PERF_SAMPLE_CPU, with this message
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> run(dir, FIELDS, false));
            assertEquals(Files.readString(dir.resolve("script.stderr")).strip(), e.getMessage());
        }
        List<String> want = golden(dir);
        List<String> got = run(dir, nocpu ? FIELDS.replace("cpu,", "") : FIELDS, false).lines().toList();
        assertTrue(got.size() >= want.size(), got.size() + " lines, perf printed at least " + want.size());
        if (!Files.exists(dir.resolve("script.truncated"))) {
            assertEquals(want.size(), got.size(), "line count");
        }
        int vdso = 0;
        for (int i = 0; i < want.size(); i++) {
            String w = want.get(i);
            String g = got.get(i);
            if (!w.equals(g) && w.endsWith(" ([vdso])") && g.endsWith(" [unknown] ([vdso])")) {
                vdso++;
                String wFrame = w.substring(0, w.lastIndexOf(' ', w.length() - " ([vdso])".length() - 1));
                assertEquals(wFrame, g.substring(0, g.length() - " [unknown] ([vdso])".length()), "line " + (i + 1));
                continue;
            }
            assertEquals(w, g, dir.getFileName() + " line " + (i + 1));
        }
        assertTrue(vdso <= 10, vdso + " [vdso] lines differ");
    }

    @Test
    void jsonLinesHaveOneObjectPerSampleAndBpfRecord() throws Exception {
        Path dir = CORPUS.resolve("e-preloaded-bpf");
        String text = run(dir, null, false);
        String json = run(dir, null, true);
        List<String> lines = json.lines().toList();
        assertEquals(text.lines().count(), lines.size());
        ObjectMapper m = new ObjectMapper();
        JsonNode first = m.readTree(lines.get(0));
        assertEquals("PERF_RECORD_KSYMBOL", first.get("type").asText(), lines.get(0));
        long samples = 0;
        long bpf = 0;
        for (String l : lines) {
            JsonNode n = m.readTree(l);
            if (!n.has("type")) {
                samples++;
                assertTrue(n.get("ip").asText().startsWith("0x"));
                if (n.get("dso").asText().startsWith("bpf_prog_")) {
                    bpf++;
                    assertEquals(n.get("dso").asText(), n.get("sym").asText());
                }
            }
        }
        assertEquals(21473, samples, "the case README's sample count");
        assertEquals(9823, bpf, "samples in the two programs (bpf-lines.txt: 5112 + 4711)");
    }

    /** Task and mmap events have no golden file: perf itself is the oracle when installed. */
    @Test
    void taskAndMmapEventsAgreeWithPerf() throws Exception {
        PerfOracle.assumeInstalled();
        Path dir = CORPUS.resolve("c-process");
        String want = PerfOracle.run("script", "-i", dir.resolve("perf.data").toString(), "--kallsyms",
                CorpusFixture.kallsyms().toString(), "--show-task-events", "--show-mmap-events");
        String got = run(dir, Script.Options.defaults().withBuildIdDir(CorpusFixture.buildIdDir()).withSymbols(CorpusFixture.kallsyms(), null)
                .withShow(Script.Show.MMAP, true).withShow(Script.Show.TASK, true));
        assertTrue(want.contains("PERF_RECORD_MMAP2") && want.contains("PERF_RECORD_FORK"), want);
        assertEquals(want, got);
    }

    @Test
    void fixedPeriodIsPrintedLikeASampledOne() {
        Path dir = CORPUS.resolve("g-fixed-period");
        String asked = run(dir, "comm,period,ip", false).lines().findFirst().orElseThrow();
        assertEquals("         swapper     100000  ffffffff821f4dab", asked);
        String dflt = run(dir, null, false).lines().findFirst().orElseThrow();
        assertEquals("         swapper     0 [000]  5534.159731:     100000 task-clock:  ffffffff821f4dab pv_native_safe_halt+0xb"
                + " ([kernel.kallsyms])", dflt);
    }

    @Test
    void unknownFieldIsRefusedInOneLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OutputFields.parse("comm,bogus"));
        assertTrue(e.getMessage().startsWith("-F: invalid field requested: bogus"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }
}
