package dev.jperf.report.annotate;

import static dev.jperf.report.CorpusFixture.CORPUS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.bpf.BpfSourceLine;
import dev.jperf.report.CorpusFixture;
import dev.jperf.report.annotate.BpfAnnotation.EventHist;
import dev.jperf.report.annotate.BpfAnnotation.FunctionHist;
import dev.jperf.report.annotate.BpfAnnotation.ProgramHist;
import dev.jperf.report.annotate.BpfAnnotation.SourceLineCount;
import dev.jperf.report.annotate.BpfAnnotation.UnknownFunction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * annotate against each corpus case's bpf-lines.json (per function, per line record and per
 * source line sample counts computed from the kernel's own line tables and perf script's symbols).
 */
class BpfAnnotationCorpusTest {
    static Stream<Path> cases() throws IOException {
        try (Stream<Path> s = Files.list(CORPUS)) {
            return s.filter(d -> Files.exists(d.resolve("bpf-lines.json"))).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void agreesWithGolden(Path dir) throws IOException {
        JsonNode golden = new ObjectMapper().readTree(dir.resolve("bpf-lines.json").toFile());
        try (PerfDataFile f = PerfDataFile.open(dir.resolve("perf.data"))) {
            BpfAnnotation a = Annotate.annotate(f, CorpusFixture.kallsyms(), CorpusFixture.buildIdDir());
            if (f.isPipe()) {
                pipe(f, a, golden);
            } else {
                assertNull(Annotate.missingLineInfo(f, a.table()));
                withLines(a, golden);
            }
        }
    }

    /** The storm's programs were never sampled, but kernel functions called bpf_prog_* were. */
    @org.junit.jupiter.api.Test
    void kernelFunctionsNamedBpfProgAreNotPrograms() {
        try (PerfDataFile f = PerfDataFile.open(CorpusFixture.data("d-bpf-storm"))) {
            assertTrue(Annotate.annotate(f, CorpusFixture.kallsyms(), CorpusFixture.buildIdDir()).events().isEmpty());
        }
    }

    private static void withLines(BpfAnnotation a, JsonNode golden) {
        Map<String, EventHist> ours = new HashMap<>();
        a.events().forEach(e -> ours.put(e.event().name(), e));
        assertTrue(golden.get("events").size() > 0);
        for (JsonNode ev : golden.get("events")) {
            String name = ev.get("event").asText();
            EventHist eh = ours.get(name);
            assertNotNull(eh, "event " + name);
            Map<Long, ProgramHist> progs = new HashMap<>();
            eh.programs().forEach(p -> progs.put(Integer.toUnsignedLong(p.prog().id()), p));
            assertEquals(ev.get("programs").size(), progs.size(), name + ": programs with samples");
            assertTrue(eh.unknownFunctions().isEmpty(), name + ": " + eh.unknownFunctions());
            for (JsonNode gp : ev.get("programs")) {
                ProgramHist p = progs.get(gp.get("id").asLong());
                String where = name + " prog " + gp.get("id");
                assertNotNull(p, where);
                assertEquals(gp.get("samples").asLong(), p.samples(), where + " samples");
                assertEquals(gp.get("name").asText(), p.name(), where);
                Map<String, Long> bySource = new TreeMap<>();
                for (JsonNode gf : gp.get("functions")) {
                    FunctionHist fh = p.functions().get(gf.get("index").asInt());
                    String fw = where + " " + gf.get("name").asText();
                    assertEquals(gf.get("ksym").asText(), fh.function().kernelName(), fw);
                    assertEquals(gf.get("perf_synth_name").asText(), fh.function().perfName(), fw);
                    assertEquals(gf.get("samples").asLong(), fh.samples(), fw + " samples");
                    assertEquals(gf.get("period").asLong(), fh.period(), fw + " period");
                    assertEquals(0, fh.samplesWithoutLine(), fw);
                    // every line record with samples, in address order, as the golden lists them
                    Map<String, String> expect = new TreeMap<>();
                    for (JsonNode gl : gf.get("lines")) {
                        expect.put(gl.get("jited_addr").asText(), gl.get("insn_off").asInt() + " "
                                + gl.get("file").asText() + ":" + gl.get("line").asInt() + ":" + gl.get("col").asInt()
                                + " " + gl.get("src").asText() + " = " + gl.get("samples").asLong() + "/"
                                + gl.get("period").asLong());
                    }
                    Map<String, String> got = new TreeMap<>();
                    BpfFunction fn = fh.function();
                    for (int j = 0; j < fn.lines().length; j++) {
                        if (fh.lineSamples(j) == 0) {
                            continue;
                        }
                        BpfSourceLine l = fn.lines()[j];
                        got.put("0x" + Long.toHexString(fn.lineAddrs()[j]), fn.prog().lineInfo().get(fn.lineIndex()[j]).insnOff()
                                + " " + l.location() + " " + l.text() + " = " + fh.lineSamples(j) + "/" + fh.linePeriod(j));
                    }
                    assertEquals(expect, got, fw + " line records");
                    for (SourceLineCount c : fh.bySourceLine()) {
                        if (c.samples() > 0) {
                            bySource.merge(c.file() + ":" + c.line() + " " + c.text().strip(), c.samples(), Long::sum);
                        }
                    }
                }
                Map<String, Long> expectBySource = new TreeMap<>();
                for (JsonNode s : gp.get("by_source_line")) {
                    expectBySource.put(s.get("file").asText() + ":" + s.get("line").asInt() + " " + s.get("src").asText().strip(),
                            s.get("samples").asLong());
                }
                assertEquals(expectBySource, bySource, where + " per source line");
            }
        }
    }

    /**
     * Pipe mode: no line table in the file; the per-function counts must still agree, and kernel
     * functions named bpf_prog_* (bpf_prog_free_deferred is sampled here) are not BPF programs.
     */
    private static void pipe(PerfDataFile f, BpfAnnotation a, JsonNode golden) {
        String msg = Annotate.missingLineInfo(f, a.table());
        assertNotNull(msg);
        assertTrue(msg.contains("pipe mode"), msg);
        Map<String, Long> expect = new TreeMap<>();
        for (JsonNode ev : golden.get("events")) {
            for (JsonNode gp : ev.get("programs")) {
                for (JsonNode gf : gp.get("functions")) {
                    if (gf.get("samples").asLong() > 0) {
                        expect.put(ev.get("event").asText() + " " + gf.get("ksym").asText(), gf.get("samples").asLong());
                    }
                }
            }
        }
        Map<String, Long> got = new TreeMap<>();
        for (EventHist e : a.events()) {
            assertTrue(e.programs().isEmpty());
            for (UnknownFunction u : e.unknownFunctions()) {
                got.put(e.event().name() + " " + u.ksym(), u.samples());
            }
        }
        assertEquals(expect, got);
    }
}
