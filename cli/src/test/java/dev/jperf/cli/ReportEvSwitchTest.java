package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * report --switch-on, --switch-off and --show-on-off-events against perf 6.1 on the same files:
 * stdout line for line, stderr and exit status as perf's, including an event the file has not
 * (perf's ERROR and HINT, -ENOENT) and a switch that leaves no sample (perf's "has no samples!",
 * as --time that keeps none).
 */
class ReportEvSwitchTest {
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "g-two-events | --switch-on task-clock",
        "g-two-events | --switch-off task-clock",
        "g-two-events | --switch-on task-clock --show-on-off-events",
        "g-two-events | --show-on-off-events",
        "g-two-events | --switch-on cpu-clock --switch-off task-clock",
        "g-two-events | --switch-on cpu-clock --switch-off task-clock --show-on-off-events --sort sym",
        "g-two-events | --switch-on task-clock --switch-off cpu-clock -n",
        "g-two-events | --switch-on dummy:HG",
        "g-two-events | --switch-on task-clock --switch-off cpu-clock --comms workload -C 1",
        "g-two-events | --switch-on nosuch",
        "g-two-events | --switch-off cpu-clock:ppp",
        "b-callchains-bpf | --switch-on cpu-clock:ppp --time 5539.3,5540",
        "b-callchains-bpf | --switch-off cpu-clock:ppp --show-on-off-events",
        "c-process | --time 1,2 --dsos libc.so.6,x",
    })
    void asPerf(String kase, String options) throws Exception {
        PerfOracle.assumeInstalled();
        List<String> args = new ArrayList<>(List.of("report", "-i", CorpusFixture.data(kase).toString(), "--stdio",
                "--kallsyms", CorpusFixture.kallsyms().toString()));
        args.addAll(List.of(options.split(" ")));
        dev.jperf.format.PerfOracle.Result theirs = dev.jperf.format.PerfOracle.perf(args.toArray(String[]::new));
        args.addAll(List.of("--buildid-dir", CorpusFixture.buildIdDir().toString()));
        Run ours = Run.of(args.toArray(String[]::new));
        assertEquals(theirs.rc(), ours.rc(), ours.err());
        assertEquals(PerfOracle.withoutTip(theirs.out()), PerfOracle.withoutTip(ours.out()));
        // jperf's hint names its own evlist
        assertEquals(theirs.err().replace("'perf evlist'", "'jperf evlist'"), ours.err());
    }
}
