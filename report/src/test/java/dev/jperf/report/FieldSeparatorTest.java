package dev.jperf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.SortKey;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * perf report -t (--field-separator): columns joined by the separator, values unaligned and padded,
 * no dotted line; with -n, children, group view, call graphs and -q; perf 6.1 as the oracle, every line.
 */
class FieldSeparatorTest {
    @ParameterizedTest(name = "{0} --sort {1} -t {2} children={3} graph={4} -n={5} group={6} -q={7}")
    @CsvSource(delimiter = ' ', value = {
        "c-process comm,dso,sym | false false true false false",
        "c-process pid,cpu , false false false false true",
        "b-callchains-bpf comm,dso | true true false false false",
        "b-callchains-bpf sym ; true false true false false",
        "g-two-events comm , false false true true false",
        "a-system-wide-bpf comm,dso,sym : false false false false false",
    })
    void linesEqualPerfs(String kase, String sort, String sep, boolean children, boolean graph, boolean samples,
            boolean group, boolean quiet) throws Exception {
        PerfOracle.assumeInstalled();
        CorpusFixture.installBinaries();
        Path data = CorpusFixture.data(kase);
        Path kallsyms = CorpusFixture.kallsyms();
        List<String> perf = new ArrayList<>(List.of("report", "-i", data.toString(), "--stdio", "--sort", sort, "-t", sep,
                children ? "--children" : "--no-children", "-g", graph ? "graph,0.5,caller" : "none",
                group ? "--group" : "--no-group", "--kallsyms", kallsyms.toString()));
        if (samples) {
            perf.add("-n");
        }
        if (quiet) {
            perf.add("-q");
        }
        List<String> theirs = PerfOracle.withoutTip(PerfOracle.run(perf.toArray(String[]::new)));
        Report.Options o = Report.Options.builder(data).buildIdDir(CorpusFixture.buildIdDir()).sort(SortKey.parse(sort))
                .children(children).callGraph(graph ? CallchainParams.parse("graph,0.5,caller") : CallchainParams.NO_GRAPH)
                .group(group).symbols(kallsyms, null).showSamples(samples).quiet(quiet).separator(sep).build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Report.run(o, new PrintStream(out, true, StandardCharsets.UTF_8));
        List<String> ours = PerfOracle.withoutTip(out.toString(StandardCharsets.UTF_8));
        assertTrue(theirs.stream().anyMatch(l -> !l.startsWith("#") && l.contains(sep)), "perf printed no separated row");
        assertEquals(theirs, ours);
    }
}
