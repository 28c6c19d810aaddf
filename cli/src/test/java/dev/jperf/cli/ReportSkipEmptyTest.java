package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * report --skip-empty (perf 6.1's default) and --no-skip-empty: the sections of events without
 * samples (the tracking dummy), and --stats's and -D's unseen record types, against perf.
 */
class ReportSkipEmptyTest {
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "g-two-events | --stdio --no-skip-empty",
        "g-two-events | --stdio --no-skip-empty --no-group -q",
        "a-system-wide-bpf | --stdio --no-skip-empty --sort comm",
        "a-system-wide-bpf | --stdio --skip-empty",
        "f-pipe | --stdio --no-skip-empty",
        "c-process | --stats --no-skip-empty",
        "g-two-events | --stats --no-skip-empty",
        "f-pipe | --stats --no-skip-empty",
        "f-pipe | --stats --skip-empty",
    })
    void asPerf(String kase, String options) throws Exception {
        PerfOracle.assumeInstalled();
        CorpusFixture.installBinaries();
        List<String> args = new ArrayList<>(List.of("report", "-i", CorpusFixture.data(kase).toString(),
                "--kallsyms", CorpusFixture.kallsyms().toString()));
        args.addAll(List.of(options.split(" ")));
        List<String> theirs = PerfOracle.withoutTip(PerfOracle.run(args.toArray(String[]::new)));
        args.addAll(0, List.of("--buildid-dir", CorpusFixture.buildIdDir().toString()));
        Run ours = Run.of(args.toArray(String[]::new));
        assertEquals(0, ours.rc(), ours.err());
        assertEquals(theirs, PerfOracle.withoutTip(ours.out()));
    }

    /** -D ends with the stats, which --no-skip-empty lengthens as perf's. */
    @ParameterizedTest
    @CsvSource({"c-process", "g-two-events"})
    void dumpEndsWithPerfsStats(String kase) throws Exception {
        PerfOracle.assumeInstalled();
        String data = CorpusFixture.data(kase).toString();
        String theirs = stats(PerfOracle.run("report", "-i", data, "-D", "--no-skip-empty"));
        Run ours = Run.of("--buildid-dir", CorpusFixture.buildIdDir().toString(), "report", "-i", data, "-D", "--no-skip-empty");
        assertEquals(0, ours.rc(), ours.err());
        assertNotEquals("", theirs);
        assertEquals(theirs, stats(ours.out()));
    }

    private static String stats(String dump) {
        int at = dump.indexOf("\nAggregated stats:");
        return at < 0 ? "" : dump.substring(at);
    }
}
