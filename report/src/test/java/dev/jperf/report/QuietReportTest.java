package dev.jperf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.report.session.SampleFilter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** perf report -q (--quiet): the rows and graphs without the comment lines, perf 6.1 as the oracle, byte for byte. */
class QuietReportTest {
    @ParameterizedTest(name = "{0} --sort {1} children={2} graph={3} dso={4}")
    @CsvSource({
        "c-process, 'comm,dso', false, false, ''",
        "b-callchains-bpf, 'comm,dso,sym', true, true, ''",
        "g-two-events, comm, false, false, ''",
        "a-system-wide-bpf, 'dso,sym', false, false, '[kernel.kallsyms]'",
    })
    void rowsAsPerfs(String kase, String sort, boolean children, boolean graph, String dso) throws Exception {
        PerfOracle.assumeInstalled();
        CorpusFixture.installBinaries();
        Path data = CorpusFixture.data(kase);
        Path kallsyms = CorpusFixture.kallsyms();
        List<String> perf = new ArrayList<>(List.of("report", "-q", "-i", data.toString(), "--stdio", "--sort", sort,
                children ? "--children" : "--no-children", "-g", graph ? "graph,0.5,caller" : "none",
                "--kallsyms", kallsyms.toString()));
        if (!dso.isEmpty()) {
            perf.addAll(List.of("-d", dso));
        }
        String theirs = PerfOracle.run(perf.toArray(String[]::new));
        Report.Options o = Report.Options.builder(data).buildIdDir(CorpusFixture.buildIdDir()).sort(SortKey.parse(sort))
                .children(children).callGraph(graph ? CallchainParams.parse("graph,0.5,caller") : CallchainParams.NO_GRAPH)
                .filter(dso.isEmpty() ? SampleFilter.NONE : SampleFilter.NONE.withDsos(Set.of(dso)))
                .symbols(kallsyms, null).quiet(true).build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Report.run(o, new PrintStream(out, true, StandardCharsets.UTF_8));
        String ours = out.toString(StandardCharsets.UTF_8);
        // one comment line stays, as in perf: the value a filter of one keeps
        assertFalse(ours.lines().anyMatch(l -> l.startsWith("#") && !l.startsWith("# dso: ")), ours);
        assertEquals(theirs, ours);
    }
}
