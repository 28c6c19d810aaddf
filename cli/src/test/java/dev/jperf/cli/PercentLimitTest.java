package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * --percent-limit as perf 6.1 applies it, every line against perf's: rows under the limit are not
 * printed but still size the columns, and the limit is the call graph's threshold too unless a
 * later -g names one (perf's parse_percent_limit sets callchain_param.min_percent).
 */
class PercentLimitTest {
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "b-callchains-bpf | --percent-limit 5",
        "b-callchains-bpf | --percent-limit 2 --sort comm,dso,sym",
        "b-callchains-bpf | --percent-limit 3 -g caller",
        "b-callchains-bpf | -g caller,0.1 --percent-limit 3",
        "b-callchains-bpf | --percent-limit 3 -g fractal,1",
        "b-callchains-bpf | --percent-limit 3 -g",
        "b-callchains-bpf | --no-children --percent-limit 4",
        "c-process | --percent-limit 5",
        "g-two-events | --percent-limit 2 --sort pid,sym",
    })
    void linesEqualPerfs(String kase, String options) throws Exception {
        PerfOracle.assumeInstalled();
        List<String> args = new ArrayList<>(List.of("report", "-i", CorpusFixture.data(kase).toString(), "--stdio",
                "--kallsyms", CorpusFixture.kallsyms().toString()));
        args.addAll(List.of(options.split(" ")));
        List<String> theirs = PerfOracle.withoutTip(PerfOracle.run(args.toArray(String[]::new)));
        Run ours = Run.of(args.toArray(String[]::new));
        assertEquals(0, ours.rc(), ours.err());
        assertEquals(theirs, PerfOracle.withoutTip(ours.out()));
    }
}
