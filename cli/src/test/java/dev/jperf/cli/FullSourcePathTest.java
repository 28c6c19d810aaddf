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
 * --full-source-path on report (srcline, srcfile) and script (-F srcline): the file's whole path
 * as the DWARF line table names it, as perf 6.1 prints it on the same recording.
 */
class FullSourcePathTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "report --stdio --sort srcline,srcfile --full-source-path",
        "report --stdio --sort srcfile --full-source-path -q",
        "script -F ip,sym,srcline --full-source-path",
        "script -F comm,ip,sym,srcline --full-source-path --no-inline",
    })
    void asPerf(String command) throws Exception {
        PerfOracle.assumeInstalled();
        CorpusFixture.installBinaries();
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.addAll(List.of("-i", CorpusFixture.data("c-process").toString(), "--kallsyms", CorpusFixture.kallsyms().toString()));
        String theirs = PerfOracle.run(args.toArray(String[]::new));
        assertTrue(theirs.contains("/workload.c"), "perf printed no path");
        args.addAll(0, List.of("--buildid-dir", CorpusFixture.buildIdDir().toString()));
        Run ours = Run.of(args.toArray(String[]::new));
        assertEquals(0, ours.rc(), ours.err());
        assertEquals(PerfOracle.withoutTip(theirs), PerfOracle.withoutTip(ours.out()));
    }
}
