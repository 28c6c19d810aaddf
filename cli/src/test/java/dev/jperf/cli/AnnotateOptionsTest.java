package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.nativeshim.Capstone;
import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * annotate's options beyond the display ones (NativeAnnotateTest has those): each run through jperf's
 * command line and perf annotate --stdio run live on the same corpus file, stdout and exit code equal.
 */
class AnnotateOptionsTest {
    private static StatTest.Result perf(List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("perf", "--buildid-dir", CorpusFixture.buildIdDir().toString(),
                "annotate"));
        cmd.addAll(args);
        return StatTest.exec(cmd);
    }

    private static Run jperf(List<String> args) {
        List<String> cmd = new ArrayList<>(List.of("--buildid-dir", CorpusFixture.buildIdDir().toString(), "annotate",
                "--kallsyms", CorpusFixture.kallsyms().toString()));
        cmd.addAll(args);
        return Run.of(cmd.toArray(String[]::new));
    }

    private static void assumeAll() {
        String why = Capstone.unavailable();
        assumeTrue(why == null, why);
        PerfOracle.assumeInstalled();
        CorpusFixture.installBinaries();
    }

    /** "KASE OPTIONS...": perf and jperf with these options print the same and exit alike. */
    @ParameterizedTest
    @ValueSource(strings = {
        "c-process -P crunch_primes",
        "c-process --full-paths -l crunch_primes",
        "c-process -P -l __GI___getppid",
        "a-system-wide-bpf -C 1 crunch_primes",
        "e-preloaded-bpf --cpu 0 scramble.constprop.0",
        "a-system-wide-bpf --percent-type global-period sum_series",
        "a-system-wide-bpf -C 1 --percent-type global-hits crunch_primes",
        "c-process --percent-type hits-global -l crunch_primes",
        "c-process -C 0",
        "c-process -f crunch_primes",
        "c-process --skip-missing",
        "c-process --demangle-kernel crunch_primes",
        "c-process --tui crunch_primes",
    })
    void agreesWithPerf(String spec) throws Exception {
        assumeAll();
        List<String> words = new ArrayList<>(Arrays.asList(spec.split(" ")));
        List<String> args = new ArrayList<>(List.of("-i", CorpusFixture.data(words.remove(0)).toString()));
        if (!words.contains("--tui")) {
            args.add("--stdio");
        }
        args.addAll(words);
        StatTest.Result p = perf(args);
        Run r = jperf(args);
        assertEquals(p.rc(), r.rc(), spec + "; perf: " + p.err() + "; jperf: " + r.err());
        assertEquals(p.out(), r.out(), spec);
        if (p.rc() == 0 && !spec.startsWith("c-process -C")) {
            assertTrue(p.out().contains("Source code & Disassembly of "), p.out());
        }
    }

    /** -P names the DSO by its path, -C keeps one CPU's samples: each changes perf's output, so the test above sees them. */
    @Test
    void theOptionsChangeTheOutput() throws Exception {
        assumeAll();
        String c = CorpusFixture.data("c-process").toString();
        String g = CorpusFixture.data("a-system-wide-bpf").toString();
        assertNotEquals(perf(List.of("-i", c, "--stdio", "crunch_primes")).out(),
                perf(List.of("-i", c, "--stdio", "-P", "crunch_primes")).out());
        assertNotEquals(perf(List.of("-i", g, "--stdio", "crunch_primes")).out(),
                perf(List.of("-i", g, "--stdio", "-C", "1", "crunch_primes")).out());
        Run r = jperf(List.of("-i", c, "--stdio", "-C", "0"));
        assertEquals(255, r.rc());
        assertEquals("File does not contain CPU events. Remove -C option to proceed.", r.err().strip());
    }

    /** -q: perf leaves the damaged file's warning out, jperf too; stdout is what it is without -q. */
    @Test
    void quietLeavesTheWarningsOut() throws Exception {
        assumeAll();
        String t = CorpusFixture.CORPUS.resolve("h-damaged/truncated.data").toString();
        StatTest.Result loud = perf(List.of("-i", t, "--stdio"));
        StatTest.Result quiet = perf(List.of("-i", t, "--stdio", "-q"));
        assertFalse(loud.err().isBlank(), "perf warned nothing without -q");
        assertTrue(quiet.err().isBlank(), quiet.err());
        assertEquals(loud.out(), quiet.out());
        Run jl = jperf(List.of("-i", t, "--stdio"));
        Run jq = jperf(List.of("-i", t, "--stdio", "--quiet"));
        assertTrue(jl.err().contains("warning: "), jl.err());
        assertFalse(jq.err().contains("warning: "), jq.err());
        assertEquals(jl.out(), jq.out());
        assertEquals(0, jq.rc());
    }
}
