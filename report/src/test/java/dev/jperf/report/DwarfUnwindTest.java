package dev.jperf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.PerfDataFile;
import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.script.Script;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Offline DWARF unwinding against perf 6.1 (its libunwind post-unwinder) on the same file: a C
 * program built here with {@code gcc -O2 -fomit-frame-pointer} (resources unwind/primes.c: a timer
 * signal's handler, libc's qsort calling back), recorded here by {@code perf record --call-graph
 * dwarf}; perf script's callchain lines and perf report's call graph, every line.
 */
class DwarfUnwindTest {
    static final Path DIR = Path.of("target", "unwind-test").toAbsolutePath();
    static Path data;

    @BeforeAll
    static void record() throws Exception {
        PerfOracle.assumeInstalled();
        Files.createDirectories(DIR);
        Path prog = DIR.resolve("primes");
        Process cc;
        try {
            cc = new ProcessBuilder("gcc", "-O2", "-fomit-frame-pointer", "-o", prog.toString(),
                    Path.of("src/test/resources/unwind/primes.c").toString()).inheritIO().start();
        } catch (IOException e) {
            assumeTrue(false, "gcc is not installed: it builds the workload");
            throw e;
        }
        assertTrue(cc.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, cc.exitValue(), "gcc");
        data = PerfOracle.record(DIR, "dwarf.data", "--call-graph", "dwarf", "-F", "4000", "--", prog.toString(), "300");
    }

    static String perfScript(Path file, String fields) throws Exception {
        return PerfOracle.run("script", "-i", file.toString(), "-F", fields, "--no-inline");
    }

    static String jperfScript(Path file, String fields) {
        Script.Options options = Script.Options.defaults().withBuildIdDir(CorpusFixture.buildIdDir()).withFields(fields)
                .withInline(false);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PerfDataFile f = PerfDataFile.open(file)) {
            Script.run(f, options, out);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Every sample's chain, as perf script prints it. */
    @Test
    void scriptChainsArePerfs() throws Exception {
        for (String fields : List.of("comm,tid,ip,sym", "comm,tid,ip,sym,dso")) {
            String want = perfScript(data, fields);
            assertTrue(want.contains("crunch_primes") && want.contains("\n\t") && want.contains(" work"),
                    "perf unwound no chain through work: " + want.substring(0, Math.min(2000, want.length())));
            assertTrue(want.contains(" _start"), "perf's chains reach _start");
            String got = jperfScript(data, fields);
            // both kept beside the recording for a look at a difference
            Files.writeString(DIR.resolve("script-" + fields.replace(',', '-') + ".perf"), want);
            Files.writeString(DIR.resolve("script-" + fields.replace(',', '-') + ".jperf"), got);
            List<String> w = want.lines().toList();
            List<String> g = got.lines().toList();
            for (int i = 0; i < Math.min(w.size(), g.size()); i++) {
                assertEquals(w.get(i), g.get(i), fields + ": line " + (i + 1));
            }
            assertEquals(w.size(), g.size(), fields + ": lines");
        }
    }

    /** perf report --no-children -g, every line but the random tip. */
    @Test
    void reportCallGraphIsPerfs() throws Exception {
        for (boolean children : new boolean[] {false, true}) {
            String want = children ? PerfOracle.run("report", "-i", data.toString(), "--stdio", "--no-inline", "-g")
                    : PerfOracle.run("report", "-i", data.toString(), "--no-children", "--stdio", "--no-inline", "-g");
            Report.Options o = Report.Options.builder(data).buildIdDir(CorpusFixture.buildIdDir()).children(children).inline(false)
                    .callGraph(CallchainParams.parse(CallchainParams.DEFAULT_ARG)).callchainsAsked(true).build();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            Report.run(o, new PrintStream(out, true, StandardCharsets.UTF_8));
            List<String> w = PerfOracle.withoutTip(want);
            List<String> g = PerfOracle.withoutTip(out.toString(StandardCharsets.UTF_8));
            assertTrue(want.contains("crunch_primes"), want);
            for (int i = 0; i < Math.min(w.size(), g.size()); i++) {
                assertEquals(w.get(i), g.get(i), "children " + children + ": line " + (i + 1));
            }
            assertEquals(w.size(), g.size(), "children " + children + ": lines");
        }
    }
}
