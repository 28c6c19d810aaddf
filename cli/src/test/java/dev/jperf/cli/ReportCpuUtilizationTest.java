package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * --show-cpu-utilization and the -F fields overhead_sys, overhead_us, overhead_guest_sys,
 * overhead_guest_us, line for line against perf 6.1 on the same files: the columns' place among
 * the default ones (after Overhead, before -n's and --show-total-period's), their absence under a
 * strict -F, their sorting as fields of the sort list, -t, group view and children.
 */
class ReportCpuUtilizationTest {
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "c-process | --show-cpu-utilization",
        "g-two-events | --show-cpu-utilization -n --show-total-period",
        "g-two-events | --show-cpu-utilization --group",
        "c-process | --show-cpu-utilization -t ,",
        "b-callchains-bpf | --show-cpu-utilization",
        "b-callchains-bpf | --show-cpu-utilization -g caller",
        "b-callchains-bpf | --show-cpu-utilization --no-children --sort sym",
        "b-callchains-bpf | --show-cpu-utilization -F sym",
        "g-two-events | --show-cpu-utilization -F +pid",
        "b-callchains-bpf | -F overhead_guest_sys,overhead_sys,overhead_us,overhead_guest_us,sym",
        "b-callchains-bpf | --sort overhead_us,sym",
        "c-process | --sort overhead_sys,comm,dso",
    })
    void linesEqualPerfs(String kase, String options) throws Exception {
        PerfOracle.assumeInstalled();
        List<String> args = new ArrayList<>(List.of("report", "-i", CorpusFixture.data(kase).toString(), "--stdio",
                "--kallsyms", CorpusFixture.kallsyms().toString()));
        args.addAll(List.of(options.split(" ")));
        List<String> theirs = PerfOracle.withoutTip(PerfOracle.run(args.toArray(String[]::new)));
        // the recording VM's vdso for both (PerfOracle hands it to perf)
        args.addAll(List.of("--buildid-dir", CorpusFixture.buildIdDir().toString()));
        Run ours = Run.of(args.toArray(String[]::new));
        assertEquals(0, ours.rc(), ours.err());
        assertEquals(theirs, PerfOracle.withoutTip(ours.out()));
    }
}
