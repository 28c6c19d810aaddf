package dev.jperf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.PerfDataFile;
import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.report.script.Script;
import dev.jperf.report.session.SampleFilter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Source lines against perf 6.1 run live on a recording made here: a C program with nested inline
 * functions (format's test resource dwarf/inl.c) built by gcc with -g -O2 and frame pointers,
 * recorded by perf with -g; perf report --sort srcline/srcfile (self and children) and perf script
 * -F +srcline against jperf on the same file, with the same build-id directory. libc's rows (its
 * lines from libc6-dbg) are compared where perf's addr2line answered for libc.
 */
class SourceLineReportTest {
    @TempDir
    static Path dir;
    static Path data;
    static Path buildIds;
    static String program;

    @BeforeAll
    static void record() throws Exception {
        PerfOracle.assumeInstalled();
        Path src = Corpus.TESTDATA.getParent().resolve("format/src/test/resources/dwarf/inl.c");
        Path bin = dir.resolve("inl");
        Process p;
        try {
            p = new ProcessBuilder("gcc", "-g", "-O2", "-fno-omit-frame-pointer", "-o", bin.toString(), src.toString())
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "gcc is not installed: it builds the recorded program");
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        program = bin.getFileName().toString();
        data = PerfOracle.record(dir, "perf.data", "-g", "-e", "cpu-clock:u", "-F", "4000", bin.toString(), "400");
        buildIds = dir.resolve("buildid");
    }

    private static String perf(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("perf", "--buildid-dir", buildIds.toString()));
        cmd.addAll(List.of(args));
        Path out = dir.resolve("perf.out");
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).redirectOutput(out.toFile()).start();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), String.join(" ", cmd));
        assertEquals(0, p.exitValue(), String.join(" ", cmd));
        return Files.readString(out);
    }

    private static List<String> jperfReport(String sort, boolean children, Set<String> dsos) {
        Report.Options o = Report.Options.builder(data).buildIdDir(buildIds).sort(SortKey.parse(sort)).children(children)
                .callGraph(CallchainParams.NO_GRAPH).filter(SampleFilter.NONE.withDsos(dsos)).build();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Report.run(o, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return PerfOracle.withoutTip(bytes.toString(StandardCharsets.UTF_8));
    }

    private static List<String> perfReport(String sort, boolean children, String dsos) throws Exception {
        return PerfOracle.withoutTip(perf("report", "-i", data.toString(), "--stdio", children ? "--children" : "--no-children",
                "-g", "none", "--sort", sort, "--dsos", dsos));
    }

    @Test
    void srclineAsPerf() throws Exception {
        List<String> want = perfReport("srcline", false, program);
        assertEquals(want, jperfReport("srcline", false, Set.of(program)));
        assertTrue(want.stream().anyMatch(l -> l.matches(".*% +inl\\.c:\\d+")), String.join("\n", want));
    }

    @Test
    void srcfileAndSymbolAsPerf() throws Exception {
        assertEquals(perfReport("srcfile", false, program), jperfReport("srcfile", false, Set.of(program)));
        // srcline after sym: made only for the entries a comparison reached (its column's width too)
        assertEquals(perfReport("sym,srcline", false, program), jperfReport("sym,srcline", false, Set.of(program)));
        assertEquals(perfReport("srcline,sym", false, program), jperfReport("srcline,sym", false, Set.of(program)));
    }

    /** Children: perf's callchain entries take the raw ip, which addr2line cannot place (symbol+offset). */
    @Test
    void childrenAsPerf() throws Exception {
        assertEquals(perfReport("srcline", true, program), jperfReport("srcline", true, Set.of(program)));
    }

    /**
     * libc's lines from libc6-dbg. perf gives up on a DSO whose addr2line has not answered in a
     * second (reading libc's debug information can take that on a busy machine): the comparison
     * needs perf to have answered.
     */
    @Test
    void libcAsPerf() throws Exception {
        String libc = "libc.so.6";
        List<String> want = perfReport("srcline", false, libc);
        assumeTrue(want.stream().anyMatch(l -> l.matches(".*% +\\S+\\.[chS]:\\d+")),
                "perf's addr2line gave no libc line (libc6-dbg missing, or its 1 s timeout): " + String.join("\n", want));
        assertEquals(want, jperfReport("srcline", false, Set.of(libc)));
    }

    @Test
    void scriptSrclineAsPerf() throws Exception {
        for (String fields : List.of("ip,sym,srcline", "comm,ip,sym,dso,srcline")) {
            List<String> want = perf("script", "-i", data.toString(), "-F", fields).lines().toList();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (PerfDataFile f = PerfDataFile.open(data)) {
                Script.run(f, Script.Options.defaults().withBuildIdDir(buildIds).withFields(fields), out);
            }
            List<String> got = out.toString(StandardCharsets.UTF_8).lines().toList();
            // libc's lines only where perf's addr2line answered for libc (see libcAsPerf)
            if (want.stream().noneMatch(l -> l.matches("  (?!inl\\.c)\\S+\\.[chS]:\\d+"))) {
                want = withoutLibcLines(want);
                got = withoutLibcLines(got);
            }
            assertEquals(want, got, fields);
            assertTrue(want.stream().anyMatch(l -> l.matches("  inl\\.c:\\d+")), fields);
        }
    }

    /** The lines after libc frames. */
    private static List<String> withoutLibcLines(List<String> lines) {
        List<String> out = new ArrayList<>();
        boolean libc = false;
        for (String l : lines) {
            if (!(libc && l.startsWith("  "))) {
                out.add(l);
            }
            libc = l.contains("__libc_start") || l.contains("libc.so");
        }
        return out;
    }
}
