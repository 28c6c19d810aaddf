package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.Corpus;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code jperf diff OLD NEW} against {@code perf diff} run live on pairs of corpus recordings (the
 * corpus kallsyms and vdso for both), every line: events paired by type and config, entries by DSO
 * and symbol name (the addresses without a symbol in a DSO as one), the Delta Abs order.
 */
class DiffTest {
    @BeforeAll
    static void perfIsHere() {
        assumeTrue(Stream.of(System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator))
                .anyMatch(d -> Files.isExecutable(Path.of(d, "perf"))), "Linux perf is not in PATH (install linux-perf): it is the oracle here");
        Corpus.installBinaries();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "c-process, c-process-stripped",
        "c-process-stripped, c-process",
        "a-system-wide-bpf, g-two-events",
        "g-two-events, a-system-wide-bpf",
        "b-callchains-bpf, a-system-wide-bpf",
        "e-preloaded-bpf, d-bpf-storm",
        "c-process-stripped, b-callchains-bpf",
        "c-process, c-process",
    })
    void linesEqualPerfs(String older, String newer) throws Exception {
        String a = Corpus.CORPUS.resolve(older).resolve("perf.data").toString();
        String b = Corpus.CORPUS.resolve(newer).resolve("perf.data").toString();
        String kallsyms = Corpus.kallsyms().toString();
        String cache = Corpus.buildIdDir().toString();
        StatTest.Result p = StatTest.exec("perf", "--buildid-dir", cache, "diff", "--kallsyms", kallsyms, a, b);
        assertEquals(0, p.rc(), p.err());
        Run r = Run.of("--buildid-dir", cache, "diff", "--kallsyms", kallsyms, a, b);
        assertEquals(0, r.rc(), r.err());
        assertTrue(p.out().startsWith("# Event '"), p.out());
        assertEquals(p.out(), r.out());
    }
}
