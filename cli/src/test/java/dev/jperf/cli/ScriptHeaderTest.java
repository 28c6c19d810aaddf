package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * script --header, --header-only and -I: perf report's header before (or instead of) the lines;
 * a stream's features printed as perf prints them while they arrive. Against perf 6.1, byte for byte.
 */
class ScriptHeaderTest {
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "c-process | --header-only", "c-process | --header-only -I", "c-process | --header", "c-process | -I",
        "g-two-events | --header -I",
        "f-pipe | --header-only", "f-pipe | --header-only -I", "f-pipe | --header", "f-pipe | -I",
    })
    void asPerfPrintsIt(String kase, String options) throws Exception {
        PerfOracle.assumeInstalled();
        CorpusFixture.installBinaries();
        List<String> args = new ArrayList<>(List.of("script", "-i", CorpusFixture.data(kase).toString(),
                "--kallsyms", CorpusFixture.kallsyms().toString()));
        args.addAll(List.of(options.split(" ")));
        String theirs = PerfOracle.run(args.toArray(String[]::new));
        assertTrue(!theirs.isEmpty(), "perf printed nothing");
        args.addAll(0, List.of("--buildid-dir", CorpusFixture.buildIdDir().toString()));
        Run ours = Run.of(args.toArray(String[]::new));
        assertEquals(0, ours.rc(), ours.err());
        assertEquals(theirs, ours.out());
    }
}
