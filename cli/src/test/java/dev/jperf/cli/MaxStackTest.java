package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.jperf.format.Corpus;
import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * report and script --max-stack: the callchain entries kept per sample (perf's
 * thread__resolve_callchain walk stops at it), before aggregation, so children and graphs lose the
 * frames beyond it. Every line against perf 6.1's on the same file.
 */
class MaxStackTest {
    @ParameterizedTest(name = "report {0}")
    @CsvSource(delimiter = '|', value = {
        "--max-stack 3",
        "--max-stack 1 -g none",
        "--max-stack 2 --no-children",
        "--max-stack 4 -G",
        "--max-stack 0",
        "--max-stack -1 -g none",
        "--max-stack 5 -g caller -s sym",
        "--max-stack 500",
    })
    void reportEqualsPerfs(String options) throws Exception {
        List<String> ours = run("report", options);
        // the limit must show: the same options without it print another report (but for the
        // default and above, which keep every frame of this file)
        if (!options.contains("500")) {
            assertNotEquals(run("report", options.replaceAll("--max-stack -?\\d+", "")), ours);
        }
    }

    @ParameterizedTest(name = "script {0}")
    @CsvSource(delimiter = '|', value = {
        "--max-stack 2",
        "--max-stack 0",
        "--max-stack 4 -F comm,tid,ip,sym",
    })
    void scriptEqualsPerfs(String options) throws Exception {
        List<String> ours = run("script", options);
        assertNotEquals(run("script", options.replaceAll("--max-stack -?\\d+", "")), ours);
    }

    /**
     * The DWARF recordings (no frame pointers, chains deeper than the limits; inline frames on, as
     * perf's default, where the C++ and qsort cases have them): the unwound user
     * frames stop at the limit too, counted from the interrupted pc (perf's get_entries), their own
     * walk beside the sample's callchain.
     */
    @ParameterizedTest(name = "dwarf {0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "c-deep|report --stdio --max-stack 1",
        "c-deep|report --stdio --max-stack 4",
        "c-deep|report --stdio --no-children -g caller --max-stack 2",
        "c-deep|report --stdio --no-children -G --max-stack 4",
        "c-deep|script -F comm,tid,ip,sym,dso --max-stack 2",
        "c-deep|script -F comm,tid,ip,sym,dso --max-stack 4",
        "c-qsort|report --stdio --max-stack 1",
        "c-qsort|report --stdio --max-stack 4",
        "c-qsort|report --stdio --no-children -g caller --max-stack 2",
        "c-qsort|report --stdio --no-children -G --max-stack 4",
        "c-qsort|script -F comm,tid,ip,sym,dso --max-stack 2",
        "c-qsort|script -F comm,tid,ip,sym,dso --max-stack 4",
        "cpp-except|report --stdio --max-stack 1",
        "cpp-except|report --stdio --max-stack 4",
        "cpp-except|report --stdio --no-children -g caller --max-stack 2",
        "cpp-except|report --stdio --no-children -G --max-stack 4",
        "cpp-except|script -F comm,tid,ip,sym,dso --max-stack 2",
        "cpp-except|script -F comm,tid,ip,sym,dso --max-stack 4",
    })
    void unwoundChainsAsPerfs(String recording, String command) throws Exception {
        dev.jperf.format.PerfOracle.assumeInstalled();
        Path dir = Corpus.dwarfBuildIdDir();
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.addAll(List.of("-i", Corpus.DWARF.resolve(recording + "/perf.data").toString()));
        dev.jperf.format.PerfOracle.Result theirs = dev.jperf.format.PerfOracle.perfWithBuildIdDir(dir,
                args.toArray(String[]::new));
        assertEquals(0, theirs.rc(), theirs.err());
        args.addAll(List.of("--buildid-dir", dir.toString()));
        Run ours = Run.of(args.toArray(String[]::new));
        assertEquals(0, ours.rc(), ours.err());
        assertEquals(PerfOracle.withoutTip(theirs.out()), PerfOracle.withoutTip(ours.out()));
        // the limit shows: every chain here is deeper than 4
        args.remove(args.indexOf("--max-stack") + 1);
        args.remove("--max-stack");
        assertNotEquals(PerfOracle.withoutTip(Run.of(args.toArray(String[]::new)).out()),
                PerfOracle.withoutTip(ours.out()));
    }

    /** Our lines for {@code jperf CMD options} on b-callchains-bpf, asserted equal to perf's. */
    private static List<String> run(String cmd, String options) throws Exception {
        PerfOracle.assumeInstalled();
        CorpusFixture.installBinaries();
        List<String> args = new ArrayList<>(List.of(cmd, "-i", CorpusFixture.data("b-callchains-bpf").toString(),
                "--kallsyms", CorpusFixture.kallsyms().toString()));
        if (cmd.equals("report")) {
            args.add("--stdio");
        }
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
