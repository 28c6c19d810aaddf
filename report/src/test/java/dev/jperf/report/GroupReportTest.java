package dev.jperf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.report.session.SampleFilter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * perf's group view on recordings made here ({cpu-clock:u,task-clock:u} with call graphs, and a
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
        String work = "for i in $(seq 1 2000); do echo $i > /dev/null; done; ls -R /usr/lib > /dev/null 2>&1; true";
        // -N: perf record adds nothing to a build-id cache
        // user space only: the kernel's addresses of the moment (BPF programs other tests load and
        // unload) are not what this test is about
        withGraphs = PerfOracle.record(dir, "graphs.data", "-N", "-e", "{cpu-clock:u,task-clock:u}", "-g", "--",
                "sh", "-c", work);
        ofThree = PerfOracle.record(dir, "three.data", "-N", "-e", "{cpu-clock:u,task-clock:u,page-faults:u}", "--",
                "sh", "-c", work);
    }

    private static void same(Path file, Report.Options o, String... perfArgs) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("perf", "--buildid-dir", CorpusFixture.buildIdDir().toString(),
                "report", "-i", file.toString(), "--stdio"));
        cmd.addAll(List.of(perfArgs));
        Path out1 = dir.resolve("perf.out");
        Process p = new ProcessBuilder(cmd).redirectOutput(out1.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            // perf 6.1 loops in group view with --no-children on some recordings (-g none too)
            p.destroyForcibly().waitFor();
            Assumptions.abort("perf " + String.join(" ", perfArgs) + " did not finish in 60 s on this recording");
        }
        assertEquals(0, p.exitValue(), String.join(" ", cmd));
        String perf = Files.readString(out1);
        assertTrue(perf.contains("of events 'anon group {") || List.of(perfArgs).contains("--no-group"), perf);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Report.run(o, new PrintStream(out, true, StandardCharsets.UTF_8));
        List<String> want = PerfOracle.withoutTip(perf);
        List<String> got = PerfOracle.withoutTip(out.toString(StandardCharsets.UTF_8));
        for (int i = 0; i < Math.min(want.size(), got.size()); i++) {
            assertEquals(want.get(i), got.get(i), String.join(" ", perfArgs) + ": line " + (i + 1));
        }
        assertEquals(want.size(), got.size(), String.join(" ", perfArgs) + ": lines");
    }

    @Test
    void childrenAndGraphsPerMember() throws Exception {
        // the build-id cache same() gives perf
        Report.Options o = Report.Options.builder(withGraphs).buildIdDir(CorpusFixture.buildIdDir()).build();
        same(withGraphs, o);
        same(withGraphs, o.toBuilder().sort(SortKey.parse("sym")).build(), "--sort", "sym");
        same(withGraphs, o.toBuilder().sort(SortKey.parse("sym")).callGraph(CallchainParams.NO_GRAPH).build(), "--sort", "sym",
                "-g", "none");
        same(withGraphs, o.toBuilder().sort(SortKey.parse("sym")).group(false).build(), "--sort", "sym", "--no-group");
        // last: perf may not finish this one (see same)
        same(withGraphs, o.toBuilder().sort(SortKey.parse("sym")).children(false).build(), "--sort", "sym", "--no-children");
    }

    @Test
    void filtersAndSamplesPerMember() throws Exception {
        Report.Options o = Report.Options.builder(ofThree).buildIdDir(CorpusFixture.buildIdDir())
                .sort(SortKey.parse("comm,dso,sym")).build();
        same(ofThree, o, "--sort", "comm,dso,sym");
        same(ofThree, o.toBuilder().showSamples(true).build(), "--sort", "comm,dso,sym", "-n");
        same(ofThree, o.toBuilder().percent(2, false).build(), "--sort", "comm,dso,sym", "--percent-limit", "2");
        SampleFilter sh = SampleFilter.tasks(Set.of("sh"), null, null);
        same(ofThree, o.toBuilder().filter(sh).build(), "--sort", "comm,dso,sym", "--comms", "sh");
        same(ofThree, o.toBuilder().filter(sh).percent(0, true).build(), "--sort", "comm,dso,sym", "--comms", "sh",
                "--percentage", "relative");
    }
}
