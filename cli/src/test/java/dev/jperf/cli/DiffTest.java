package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.Corpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
        dev.jperf.format.PerfOracle.assumeInstalled();
        Corpus.installBinaries();
    }

    @ParameterizedTest(name = "{0} -> {1} {2}")
    @CsvSource({
        "c-process, c-process-stripped, ''",
        "c-process-stripped, c-process, ''",
        "a-system-wide-bpf, g-two-events, ''",
        "g-two-events, a-system-wide-bpf, ''",
        "b-callchains-bpf, a-system-wide-bpf, ''",
        "e-preloaded-bpf, d-bpf-storm, ''",
        "c-process-stripped, b-callchains-bpf, ''",
        "c-process, c-process, ''",
        "c-process, c-process-stripped, -c delta",
        "a-system-wide-bpf, g-two-events, -c delta -p",
        "e-preloaded-bpf, b-callchains-bpf, -p",
    })
    void linesEqualPerfs(String older, String newer, String options) throws Exception {
        String a = Corpus.CORPUS.resolve(older).resolve("perf.data").toString();
        String b = Corpus.CORPUS.resolve(newer).resolve("perf.data").toString();
        String kallsyms = Corpus.kallsyms().toString();
        String cache = Corpus.buildIdDir().toString();
        List<String> opts = options.isEmpty() ? List.of() : List.of(options.split(" "));
        List<String> perf = new ArrayList<>(List.of("perf", "--buildid-dir", cache, "diff", "--kallsyms", kallsyms));
        perf.addAll(opts);
        perf.addAll(List.of(a, b));
        StatTest.Result p = StatTest.exec(perf);
        assertEquals(0, p.rc(), p.err());
        List<String> ours = new ArrayList<>(List.of("--buildid-dir", cache, "diff", "--kallsyms", kallsyms));
        ours.addAll(opts);
        ours.addAll(List.of(a, b));
        Run r = Run.of(ours.toArray(String[]::new));
        assertEquals(0, r.rc(), r.err());
        assertTrue(p.out().startsWith("# Event '"), p.out());
        assertEquals(p.out(), r.out());
    }
}
