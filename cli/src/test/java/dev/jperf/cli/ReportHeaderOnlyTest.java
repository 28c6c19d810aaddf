package dev.jperf.cli;

import static dev.jperf.report.CorpusFixture.CORPUS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code jperf report --header-only [-I]} through the command line, as a user runs it. */
class ReportHeaderOnlyTest {
    @Test
    void fullHeaderMatchesPerfExceptCapturedOn() throws Exception {
        Path data = CORPUS.resolve("e-preloaded-bpf/perf.data");
        Run r = Run.of("report", "-i", data.toString(), "--header-only", "-I");
        assertEquals(0, r.rc(), r.err());
        List<String> want = Files.readAllLines(data.resolveSibling("header.txt"));
        List<String> have = r.out().lines().toList();
        assertEquals(want.size(), have.size());
        for (int i = 0; i < want.size(); i++) {
            if (!want.get(i).startsWith("# captured on")) {
                assertEquals(want.get(i), have.get(i), "line " + (i + 1));
            }
        }
    }

    @Test
    void withoutShowInfoTopologyIsSummarised() {
        Run r = Run.of("report", "-i", CORPUS.resolve("a-system-wide-bpf/perf.data").toString(), "--header-only");
        assertEquals(0, r.rc(), r.err());
        for (String f : List.of("CPU_TOPOLOGY", "NUMA_TOPOLOGY", "CACHE", "MEM_TOPOLOGY")) {
            assertTrue(r.out().contains("# " + f + " info available, use -I to display\n"), f);
        }
        assertTrue(r.out().contains("# hostname : vm\n"));
    }

    @Test
    void damagedFilesGiveOneLineAndNoStackTrace() {
        Run bad = Run.of("report", "-i", CORPUS.resolve("h-damaged/bad-magic.data").toString(), "--header-only", "-I");
        assertEquals(255, bad.rc()); // perf's, as h-damaged/bad-magic.header.rc says
        assertEquals(1, bad.err().lines().count(), bad.err());
        assertTrue(bad.err().contains("bad-magic.data"), bad.err());
        Run bpf = Run.of("report", "-i", CORPUS.resolve("h-damaged/bpf-prog-info-offset-into-data.data").toString(),
                "--header-only", "-I");
        assertEquals(0, bpf.rc());
        assertTrue(bpf.err().contains("points into the data section"), bpf.err());
        assertTrue(bpf.out().contains("# btf info of id"), "BPF_BTF still printed");
    }

    @Test
    void headerThenReportAsPerfPrintsIt() throws Exception {
        Path data = CORPUS.resolve("e-preloaded-bpf/perf.data");
        Run both = Run.of("report", "-i", data.toString(), "--header", "-I", "--stdio", "--sort", "sym");
        Run header = Run.of("report", "-i", data.toString(), "--header-only", "-I");
        Run report = Run.of("report", "-i", data.toString(), "--stdio", "--sort", "sym");
        assertEquals(0, both.rc(), both.err());
        List<String> reportLines = report.out().lines().toList();
        assertTrue(reportLines.get(0).startsWith("# To display the perf.data header info"), reportLines.get(0));
        // perf: the header, then the report without its hint line and the "#" under it
        String want = header.out() + String.join("\n", reportLines.subList(2, reportLines.size())) + "\n";
        assertEquals(want, both.out());
        List<String> golden = Files.readAllLines(data.resolveSibling("header.txt"));
        List<String> have = both.out().lines().toList();
        for (int i = 0; i < golden.size(); i++) {
            if (!golden.get(i).startsWith("# captured on")) {
                assertEquals(golden.get(i), have.get(i), "line " + (i + 1));
            }
        }
    }
}
