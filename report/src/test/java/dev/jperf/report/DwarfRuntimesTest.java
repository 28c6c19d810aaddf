package dev.jperf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.PerfDataFile;
import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.script.Script;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * Offline DWARF unwinding of language runtimes against perf 6.1 on the same file, recorded here by
 * {@code perf record --call-graph dwarf}: a JVM running Java (libjvm.so's frames by its CFI, JIT
 * code named through the {@code perf-PID.map} the JVM writes at exit, where perf's libunwind, with
 * no CFI for JIT code, ends the chain; the launcher thread's frames outgrow the 8 KiB stack copy:
 * perf's {@code -1} frame), and CPython (the interpreter's C frames through libpython's CFI). perf
 * script's chains and perf report's call graph, every line. Recorded live, not frozen: the binaries
 * are this machine's (the JDK running the tests, Debian's python3) and too large for the repository.
 */
class DwarfRuntimesTest {
    static final Path DIR = Path.of("target", "runtimes-test").toAbsolutePath();

    static final String SPIN = """
            public class Spin {
                static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
                static double work(int rounds) {
                    double s = 0;
                    for (int r = 0; r < rounds; r++) { s += fib(24); s += Math.sqrt(s); }
                    return s;
                }
                public static void main(String[] a) {
                    long end = System.nanoTime() + Long.parseLong(a[0]) * 1_000_000L;
                    double s = 0;
                    while (System.nanoTime() < end) s += work(50);
                    System.out.println(s > 0);
                }
            }
            """;

    static final String FIB = """
            import time
            def fib(n): return n if n < 2 else fib(n - 1) + fib(n - 2)
            end = time.time() + 1.0
            while time.time() < end: fib(18)
            """;

    @Test
    void jvmAsPerf() throws Exception {
        PerfOracle.assumeInstalled();
        Path dir = Files.createDirectories(DIR.resolve("jvm"));
        Files.writeString(dir.resolve("Spin.java"), SPIN);
        var javac = ToolProvider.getSystemJavaCompiler();
        assumeTrue(javac != null, "no Java compiler in this runtime");
        assertEquals(0, javac.run(null, null, null, "-d", dir.toString(), dir.resolve("Spin.java").toString()));
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path data = PerfOracle.record(dir, "jvm.data", "--call-graph", "dwarf", "-F", "499", "--", java.toString(),
                "-XX:+UnlockDiagnosticVMOptions", "-XX:+DumpPerfMapAtExit", "-cp", dir.toString(), "Spin", "1200");
        List<Path> maps = perfMaps(data);
        try {
            String want = compare(data, dir);
            assertTrue(want.contains("libjvm.so"), "perf unwound no libjvm.so frame");
            assertTrue(maps.stream().anyMatch(Files::isRegularFile), "the JVM wrote no perf map");
        } finally {
            for (Path m : maps) {
                Files.deleteIfExists(m);
            }
        }
    }

    @Test
    void pythonAsPerf() throws Exception {
        PerfOracle.assumeInstalled();
        Path python = Path.of("/usr/bin/python3");
        assumeTrue(Files.isExecutable(python), "no " + python);
        Path dir = Files.createDirectories(DIR.resolve("python"));
        Files.writeString(dir.resolve("fib.py"), FIB);
        Path data = PerfOracle.record(dir, "python.data", "--call-graph", "dwarf", "-F", "999", "--", python.toString(),
                dir.resolve("fib.py").toString());
        String want = compare(data, dir);
        assertTrue(want.contains("_PyEval_EvalFrameDefault"), "perf unwound no interpreter frame");
    }

    /** The JVM's perf-PID.map files (perf and jperf read them from /tmp): the recording's process ids. */
    private static List<Path> perfMaps(Path data) throws Exception {
        String pids = PerfOracle.run("script", "-i", data.toString(), "-F", "pid");
        return pids.lines().map(String::trim).filter(s -> !s.isEmpty()).distinct()
                .map(p -> Path.of("/tmp", "perf-" + p + ".map")).toList();
    }

    /** perf script's chains and perf report -g against jperf's on {@code data}; perf script's text. */
    private static String compare(Path data, Path dir) throws Exception {
        String fields = "comm,tid,ip,sym,dso";
        String want = PerfOracle.run("script", "-i", data.toString(), "-F", fields, "--no-inline");
        Script.Options options = Script.Options.defaults().withBuildIdDir(CorpusFixture.buildIdDir()).withFields(fields)
                .withInline(false);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PerfDataFile f = PerfDataFile.open(data)) {
            Script.run(f, options, out);
        }
        String got = out.toString(StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("script.perf"), want);
        Files.writeString(dir.resolve("script.jperf"), got);
        assertTrue(want.contains("\n\t"), "perf unwound nothing");
        assertLines(want.lines().toList(), got.lines().toList(), "script");
        String report = PerfOracle.run("report", "-i", data.toString(), "--no-children", "--stdio", "--no-inline", "-g");
        Report.Options o = Report.Options.builder(data).buildIdDir(CorpusFixture.buildIdDir()).children(false)
                .inline(false).callGraph(CallchainParams.parse(CallchainParams.DEFAULT_ARG)).callchainsAsked(true).build();
        ByteArrayOutputStream r = new ByteArrayOutputStream();
        Report.run(o, new PrintStream(r, true, StandardCharsets.UTF_8));
        assertLines(PerfOracle.withoutTip(report), PerfOracle.withoutTip(r.toString(StandardCharsets.UTF_8)), "report");
        return want;
    }

    private static void assertLines(List<String> w, List<String> g, String what) {
        for (int i = 0; i < Math.min(w.size(), g.size()); i++) {
            assertEquals(w.get(i), g.get(i), what + ": line " + (i + 1));
        }
        assertEquals(w.size(), g.size(), what + ": lines");
    }
}
