package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * report --symbol-filter (the first event's rows whose symbol contains it, when a key collapses as
 * perf's comm does), -S with addresses, and --samples (the TUI's, nothing in the stdio report;
 * its number checked as perf checks it): status, stdout and stderr against perf 6.1's.
 */
class ReportFilterOptionsTest {
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "c-process | --symbol-filter scr",
        "c-process | --symbol-filter do_ --percentage relative",
        "c-process | --symbol-filter s --sort dso,sym",
        "c-process | --symbol-filter crunch --sort pid",
        "b-callchains-bpf | --symbol-filter do_ --percentage relative",
        "b-callchains-bpf | --symbol-filter bpf_prog --percentage relative -g caller",
        "b-callchains-bpf | --symbol-filter a --no-children -g callee,0.1",
        "b-callchains-bpf | --symbol-filter bpf -n --sort comm,dso",
        "g-two-events | --symbol-filter crunch",
        "g-two-events | --symbol-filter crunch --no-group",
        "a-system-wide-bpf | --symbol-filter x --percentage relative -q --sort sym,comm",
        "b-callchains-bpf | -S 0xffffffff821ef666 --no-children",
        "b-callchains-bpf | -S ffffffff821ef666,bpf_trace_run2 --sort comm,sym",
        "c-process | --samples 5",
        "c-process | --samples -5",
        "c-process | --samples=100000000000",
        "c-process | --samples 0x10",
        "c-process | --samples abc",
    })
    void asPerf(String kase, String options) throws Exception {
        PerfOracle.assumeInstalled();
        CorpusFixture.installBinaries();
        List<String> args = new ArrayList<>(List.of("report", "--stdio", "-i", CorpusFixture.data(kase).toString(),
                "--kallsyms", CorpusFixture.kallsyms().toString()));
        args.addAll(List.of(options.split(" ")));
        String[] theirs = ScriptFiltersTest.perf(args.toArray(String[]::new));
        args.addAll(0, List.of("--buildid-dir", CorpusFixture.buildIdDir().toString()));
        Run ours = Run.of(args.toArray(String[]::new));
        assertEquals(Integer.parseInt(theirs[0]), ours.rc(), ours.err());
        assertEquals(PerfOracle.withoutTip(theirs[1]), PerfOracle.withoutTip(ours.out()));
        if (ours.rc() == 0) {
            assertEquals(theirs[2], ours.err());
        } else {
            // a usage error: one line naming the option (perf adds its usage)
            assertEquals(1, ours.err().lines().count(), ours.err());
            assertEquals(true, ours.err().contains("samples"), ours.err());
        }
    }
}
