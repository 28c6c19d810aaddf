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
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * perf's group view on a recording made here ({cpu-clock,task-clock} with call graphs, and a
 * group of three without): children and self columns per member, call graphs under the leader's
 * entries, filters, --percentage relative, -n, --no-group; perf 6.1 run live as the oracle.
 */
class GroupReportTest {
    @TempDir
    static Path dir;
    static Path withGraphs;
    static Path ofThree;

    @BeforeAll
    static void record() throws Exception {
        PerfOracle.assumeInstalled();
        String work = "for i in $(seq 1 2000); do echo $i > /dev/null; done; ls -R /usr/lib > /dev/null";
        // -N: perf record leaves the build-id cache alone
        withGraphs = PerfOracle.record(dir, "graphs.data", "-N", "-e", "{cpu-clock,task-clock}", "-g", "--",
                "sh", "-c", work);
        ofThree = PerfOracle.record(dir, "three.data", "-N", "-e", "{cpu-clock,task-clock,page-faults}", "--",
                "sh", "-c", work);
    }

    private static void same(Path file, Report.Options o, String... perfArgs) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("report", "-i", file.toString(), "--stdio"));
        cmd.addAll(List.of(perfArgs));
        String perf = PerfOracle.run(cmd.toArray(new String[0]));
        assertTrue(perf.contains("of events 'anon group {") || List.of(perfArgs).contains("--no-group"), perf);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Report.run(o, new PrintStream(out, true, StandardCharsets.UTF_8));
        assertEquals(PerfOracle.withoutTip(perf), PerfOracle.withoutTip(out.toString(StandardCharsets.UTF_8)));
    }

    @Test
    void childrenAndGraphsPerMember() throws Exception {
        Report.Options o = Report.Options.defaults(withGraphs);
        same(withGraphs, o);
        same(withGraphs, o.withSort(SortKey.parse("sym")), "--sort", "sym");
        same(withGraphs, o.withSort(SortKey.parse("sym")).withChildren(false), "--sort", "sym", "--no-children");
        same(withGraphs, o.withSort(SortKey.parse("sym")).withCallGraph(CallchainParams.NO_GRAPH), "--sort", "sym",
                "-g", "none");
        same(withGraphs, o.withSort(SortKey.parse("sym")).withGroup(false), "--sort", "sym", "--no-group");
    }

    @Test
    void filtersAndSamplesPerMember() throws Exception {
        Report.Options o = Report.Options.defaults(ofThree).withSort(SortKey.parse("comm,dso,sym"));
        same(ofThree, o, "--sort", "comm,dso,sym");
        same(ofThree, o.withShowSamples(true), "--sort", "comm,dso,sym", "-n");
        same(ofThree, o.withPercent(2, false), "--sort", "comm,dso,sym", "--percent-limit", "2");
        SampleFilter sh = SampleFilter.tasks(Set.of("sh"), null, null);
        same(ofThree, o.withFilter(sh), "--sort", "comm,dso,sym", "--comms", "sh");
        same(ofThree, o.withFilter(sh).withPercent(0, true), "--sort", "comm,dso,sym", "--comms", "sh",
                "--percentage", "relative");
    }
}
