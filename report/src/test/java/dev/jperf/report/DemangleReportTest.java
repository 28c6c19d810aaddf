package dev.jperf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.PerfDataFile;
import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.report.script.Script;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A C++ program recorded by perf 6.1 (resources demangle/, see its README): jperf report and
 * script name its functions exactly as perf does, demangled by default and as in the file with
 * --no-demangle (PLT entries included).
 */
class DemangleReportTest {
    private static final String DSO = "/tmp/jperf-cxx/cxx-workload";
    @TempDir
    static Path symfs;
    static Path dir;

    @BeforeAll
    static void setUp() throws Exception {
        dir = Path.of(DemangleReportTest.class.getResource("demangle/perf.data").toURI()).getParent();
        Path bin = symfs.resolve(DSO.substring(1));
        Files.createDirectories(bin.getParent());
        Files.copy(dir.resolve("cxx-workload"), bin);
    }

    private static List<String> report(boolean demangle) {
        Report.Options o = Report.Options.builder(dir.resolve("perf.data")).buildIdDir(CorpusFixture.buildIdDir()).sort(SortKey.parse("dso,sym"))
                .children(false).callGraph(CallchainParams.NO_GRAPH).symbols(null, symfs)
                .demangle(demangle).build();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Report.run(o, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains(" cxx-workload ")).toList();
    }

    private static List<String> script(boolean demangle) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PerfDataFile f = PerfDataFile.open(dir.resolve("perf.data"))) {
            Script.run(f, Script.Options.defaults().withBuildIdDir(CorpusFixture.buildIdDir()).withSymbols(null, symfs).withFields("ip,sym,dso")
                    .withDemangle(demangle), out);
        }
        return out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("(" + DSO + ")")).distinct().toList();
    }

    @Test
    void reportEqualsPerf() throws Exception {
        List<String> golden = Files.readAllLines(dir.resolve("report-dso-sym.txt"));
        assertEquals(golden, report(true));
        assertTrue(golden.stream().anyMatch(l -> l.endsWith("[.] (anonymous namespace)::Square::area")));
    }

    @Test
    void reportNoDemangleEqualsPerf() throws Exception {
        List<String> golden = Files.readAllLines(dir.resolve("report-dso-sym-no-demangle.txt"));
        assertEquals(golden, report(false));
        assertTrue(golden.stream().anyMatch(l -> l.endsWith("[.] _ZNK12_GLOBAL__N_16Square4areaEi")));
    }

    @Test
    void scriptEqualsPerf() throws Exception {
        assertEquals(Files.readAllLines(dir.resolve("script-ip-sym-dso.txt")), script(true));
    }

    @Test
    void scriptNoDemangleEqualsPerf() throws Exception {
        assertEquals(Files.readAllLines(dir.resolve("script-ip-sym-dso-no-demangle.txt")), script(false));
    }
}
