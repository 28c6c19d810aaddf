package dev.jperf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.report.session.SampleFilter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** perf report -n (--show-nr-samples): the Samples column, with perf 6.1 as the oracle, every line. */
class SamplesColumnTest {
    @ParameterizedTest(name = "{0} --sort {1} children={2} graph={3}")
    @CsvSource({
        "b-callchains-bpf, sym, true, true",
        "b-callchains-bpf, 'comm,dso,sym', true, false",
        "b-callchains-bpf, sym, false, false",
        "a-system-wide-bpf, 'comm,dso,sym', false, false",
    })
    void linesEqualPerfs(String kase, String sort, boolean children, boolean graph) throws Exception {
        PerfOracle.assumeInstalled();
        Path data = CorpusFixture.data(kase);
        Path kallsyms = CorpusFixture.kallsyms();
        List<String> theirs = PerfOracle.withoutTip(PerfOracle.run("report", "-i", data.toString(), "--stdio", "--sort", sort, "-n",
                children ? "--children" : "--no-children", "-g", graph ? "graph,0.5,caller" : "none",
                "--kallsyms", kallsyms.toString()));
        Report.Options o = Report.Options.builder(data).buildIdDir(CorpusFixture.buildIdDir()).sort(SortKey.parse(sort)).children(children)
                .callGraph(graph ? CallchainParams.parse("graph,0.5,caller") : CallchainParams.NO_GRAPH)
                .symbols(kallsyms, null).showSamples(true).build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Report.run(o, new PrintStream(out, true, StandardCharsets.UTF_8));
        List<String> ours = PerfOracle.withoutTip(out.toString(StandardCharsets.UTF_8));
        assertTrue(theirs.stream().anyMatch(l -> l.contains("Samples  ")), "perf printed no Samples column");
        assertEquals(theirs, ours);
    }

    /** With a one-value filter the elided column goes, the Samples column stays. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"c-process"})
    void withAnElidedColumn(String kase) throws Exception {
        PerfOracle.assumeInstalled();
        Path data = CorpusFixture.data(kase);
        Path kallsyms = CorpusFixture.kallsyms();
        List<String> theirs = PerfOracle.withoutTip(PerfOracle.run("report", "-i", data.toString(), "--stdio", "--sort",
                "dso,sym", "-n", "-d", "workload", "--kallsyms", kallsyms.toString()));
        Report.Options o = Report.Options.builder(data).buildIdDir(CorpusFixture.buildIdDir()).sort(SortKey.parse("dso,sym"))
                .filter(SampleFilter.NONE.withDsos(Set.of("workload"))).symbols(kallsyms, null)
                .showSamples(true).build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Report.run(o, new PrintStream(out, true, StandardCharsets.UTF_8));
        assertEquals(theirs, PerfOracle.withoutTip(out.toString(StandardCharsets.UTF_8)));
    }
}
