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
 * report -U/--hide-unresolved: samples without a symbol dropped before they count (the header's
 * totals and the percentages change), callchain frames without one left out. Every line against
 * perf 6.1's on the same file.
 */
class HideUnresolvedTest {
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "b-callchains-bpf | -U",
        "b-callchains-bpf | --hide-unresolved -g none",
        "b-callchains-bpf | -U --no-children -s dso,sym",
        "b-callchains-bpf | -U -G",
        "b-callchains-bpf | -U --max-stack 4 -g caller",
        "b-callchains-bpf | -U -n --show-total-period -g none",
        "a-system-wide-bpf | -U -g none",
        "g-two-events | -U -s dso,sym",
    })
    void linesEqualPerfs(String kase, String options) throws Exception {
        List<String> ours = run(kase, options);
        // -U must show: the same report without it is another
        assertNotEquals(run(kase, options.replaceAll("-U|--hide-unresolved", "")), ours);
    }

    private static List<String> run(String kase, String options) throws Exception {
        PerfOracle.assumeInstalled();
        CorpusFixture.installBinaries();
        List<String> args = new ArrayList<>(List.of("report", "-i", CorpusFixture.data(kase).toString(), "--stdio",
                "--kallsyms", CorpusFixture.kallsyms().toString()));
        for (String o : options.strip().split(" +")) {
            if (!o.isEmpty()) {
                args.add(o);
            }
        }
        List<String> theirs = PerfOracle.withoutTip(PerfOracle.run(args.toArray(String[]::new)));
        args.addAll(0, List.of("--buildid-dir", CorpusFixture.buildIdDir().toString()));
        Run ours = Run.of(args.toArray(String[]::new));
        assertEquals(0, ours.rc(), ours.err());
        List<String> lines = PerfOracle.withoutTip(ours.out());
        assertEquals(theirs, lines);
        return lines;
    }
}
