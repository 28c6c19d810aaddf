package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * report --show-total-period (a Period column) and --percent-type (annotation percentages, which
 * the stdio report does not print), every line against perf 6.1's on the same file.
 */
class ReportColumnsTest {
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "c-process | --show-total-period --sort comm,dso",
        "c-process | --show-total-period -n -t , --sort comm,dso",
        "c-process | --show-total-period --percentage relative --comms workload --sort comm,dso",
        "b-callchains-bpf | --show-total-period -n --children -g none --sort comm,dso",
        "b-callchains-bpf | --show-total-period --no-children -g caller",
        "g-two-events | --show-total-period -n --group --sort comm,dso",
        "g-two-events | --show-total-period --no-group -q --sort pid,sym",
        "a-system-wide-bpf | --show-total-period -t ; -d [kernel.kallsyms]",
        "c-process | --percent-type local-period --sort comm,dso",
        "c-process | --percent-type hits-global -n",
        "b-callchains-bpf | --percent-type global-period --no-children -g none",
    })
    void linesEqualPerfs(String kase, String options) throws Exception {
        PerfOracle.assumeInstalled();
        CorpusFixture.installBinaries();
        List<String> args = new ArrayList<>(List.of("report", "-i", CorpusFixture.data(kase).toString(), "--stdio",
                "--kallsyms", CorpusFixture.kallsyms().toString()));
        args.addAll(List.of(options.split(" ")));
        List<String> theirs = PerfOracle.withoutTip(PerfOracle.run(args.toArray(String[]::new)));
        // the build-id cache perf was given: the recording's vdso
        args.addAll(0, List.of("--buildid-dir", CorpusFixture.buildIdDir().toString()));
        Run ours = Run.of(args.toArray(String[]::new));
        assertEquals(0, ours.rc(), ours.err());
        assertEquals(theirs, PerfOracle.withoutTip(ours.out()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"global", "local-period-x", "foo", "", "period-period", "local-local"})
    void badPercentTypeIsAUsageErrorAsInPerf(String type) throws Exception {
        PerfOracle.assumeInstalled();
        String data = CorpusFixture.data("c-process").toString();
        Process p = new ProcessBuilder("perf", "report", "-i", data, "--stdio", "--percent-type", type)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "perf timed out");
        Run ours = Run.of("report", "-i", data, "--stdio", "--percent-type", type);
        assertEquals(p.exitValue(), ours.rc(), ours.err());
        assertEquals("", ours.out());
        assertEquals(1, ours.err().lines().count(), ours.err());
        assertTrue(ours.err().contains("--percent-type"), ours.err());
    }
}
