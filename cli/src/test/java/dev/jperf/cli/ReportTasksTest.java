package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * report --tasks and --mmaps (the thread tree by parent in perf's thread order, each thread's maps
 * with prot, flags, pgoff and inode), every line against perf 6.1's on the same file.
 */
class ReportTasksTest {
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "c-process, --tasks",
        "c-process, --mmaps",
        "a-system-wide-bpf, --tasks",
        "a-system-wide-bpf, --mmaps",
        "b-callchains-bpf, --mmaps",
        "f-pipe, --tasks",
        "f-pipe, --mmaps",
        "d-bpf-storm, --mmaps",
        "e-preloaded-bpf, --tasks",
    })
    void linesEqualPerfs(String kase, String option) throws Exception {
        PerfOracle.assumeInstalled();
        String data = CorpusFixture.data(kase).toString();
        List<String> theirs = PerfOracle.run("report", "-i", data, option).lines().toList();
        Run ours = Run.of("report", "-i", data, option);
        assertEquals(0, ours.rc(), ours.err());
        // a tree with children, or maps under the threads: not a header line alone
        assertTrue(theirs.size() > 2, String.join("\n", theirs));
        assertEquals(theirs, ours.out().lines().toList());
    }
}
