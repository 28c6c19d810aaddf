package dev.jperf.report.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.PerfDataFile;
import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import dev.jperf.report.Report;
import dev.jperf.report.symbol.SymbolResolver;
import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.SortKey;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Folded stacks against perf 6.1, live: {@code report -g folded} against {@code perf report -g
 * folded} and {@code script --folded} against perf's stackcollapse script, on the corpus with its
 * kallsyms and a private build-id cache holding its vdso (for perf and jperf alike).
 */
class FoldedExportTest {
    @TempDir
    static Path tmp;
    static Path cache;

    @BeforeAll
    static void setUp() throws Exception {
        PerfOracle.assumeInstalled();
        CorpusFixture.installBinaries();
        cache = CorpusFixture.buildIdDir();
    }

    /** perf's input: a copy, as perf script report wants the file in a directory it may write to. */
    private static Path copy(String kase) throws Exception {
        Path p = tmp.resolve(kase + ".data");
        if (!Files.exists(p)) {
            Files.copy(CorpusFixture.data(kase), p);
        }
        return p;
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "true|sym|folded",
        "false|sym|folded",
        "true|sym|folded,callee",
        "true|comm,dso,sym|folded",
        "false|comm,dso,sym|folded,0.5,caller,count",
        "true|dso,sym|folded,period"})
    void reportFoldedIsPerfs(boolean children, String sort, String graph) throws Exception {
        Path data = copy("b-callchains-bpf");
        String perf = PerfOracle.run("report", "-i", data.toString(), "--stdio",
                "--kallsyms", CorpusFixture.kallsyms().toString(), children ? "--children" : "--no-children",
                "--sort", sort, "-g", graph);
        Report.Options o = Report.Options.builder(data).symbols(CorpusFixture.kallsyms(), null).buildIdDir(cache)
                .sort(SortKey.parse(sort)).children(children).callGraph(CallchainParams.parse(graph)).build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Report.run(o, new PrintStream(out, true, StandardCharsets.UTF_8));
        List<String> jperf = PerfOracle.withoutTip(out.toString(StandardCharsets.UTF_8));
        assertTrue(jperf.stream().anyMatch(l -> l.contains(";") && l.contains("bpf_prog_904d8356ffe3e4ed_mix_a")), "no BPF frame in a folded chain");
        assertSameLines(PerfOracle.withoutTip(perf), jperf);
    }

    /** The first differing line (whole outputs are too long for a message). */
    static void assertSameLines(List<String> expected, List<String> actual) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            assertEquals(expected.get(i), actual.get(i), "line " + (i + 1));
        }
        assertEquals(expected.size(), actual.size(), "lines");
    }

    private static String folded(Path data, PrintStream err) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PerfDataFile f = PerfDataFile.open(data)) {
            Exports.folded(f, SymbolResolver.Options.defaults(CorpusFixture.kallsyms(), null, cache), out, err);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /**
     * perf's stackcollapse script. Its report wrapper runs a second perf, which takes the build-id
     * cache from $HOME/.debug whatever --buildid-dir said: a home of its own holds the cache.
     */
    private static String stackcollapse(Path data) throws Exception {
        Path home = tmp.resolve("perf-home");
        if (!Files.exists(home.resolve(".debug"))) {
            Files.createDirectories(home);
            Files.createSymbolicLink(home.resolve(".debug"), cache);
        }
        ProcessBuilder pb = new ProcessBuilder("perf", "--buildid-dir", cache.toString(), "script", "report",
                "stackcollapse", "-i", data.toString(), "--kallsyms", CorpusFixture.kallsyms().toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("HOME", home.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "perf script report stackcollapse timed out");
        assertEquals(0, p.exitValue(), "perf script report stackcollapse");
        return out;
    }

    @Test
    void scriptFoldedIsPerfsStackcollapse() throws Exception {
        Path data = copy("b-callchains-bpf");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String jperf = folded(data, new PrintStream(err, true, StandardCharsets.UTF_8));
        assertTrue(jperf.contains("workload;__libc_start_call_main;main;work;__GI___getppid;entry_SYSCALL_64_after_hwframe;"
                + "do_syscall_64;syscall_trace_enter;__bpf_trace_sys_enter;bpf_trace_run2;"
                + "bpf_prog_b6a1b5bdb8a35599_subprogs_main;bpf_prog_904d8356ffe3e4ed_mix_a "), "no BPF stack");
        assertSameLines(stackcollapse(data).lines().toList(), jperf.lines().toList());
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    /**
     * Without callchains perf's script prints the comm alone; jperf keeps the sampled function
     * (flat frames) and says so once: per comm the counts are perf's.
     */
    @Test
    void withoutCallchainsFlatFramesSaidOnce() throws Exception {
        Path data = copy("a-system-wide-bpf");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String jperf = folded(data, new PrintStream(err, true, StandardCharsets.UTF_8));
        List<String> said = err.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(1, said.size(), said.toString());
        assertTrue(said.get(0).contains("no callchains"), said.get(0));
        Map<String, Long> perComm = new TreeMap<>();
        for (String l : jperf.lines().toList()) {
            String stack = l.substring(0, l.lastIndexOf(' '));
            String[] frames = stack.split(";");
            assertEquals(2, frames.length, l);
            perComm.merge(frames[0], Long.parseLong(l.substring(l.lastIndexOf(' ') + 1)), Long::sum);
        }
        assertTrue(jperf.contains("workload;bpf_prog_904d8356ffe3e4ed_mix_a "), "no BPF frame");
        Map<String, Long> perf = new TreeMap<>();
        for (String l : stackcollapse(data).lines().toList()) {
            perf.put(l.substring(0, l.lastIndexOf(' ')), Long.parseLong(l.substring(l.lastIndexOf(' ') + 1)));
        }
        assertEquals(perf, perComm);
    }
}
