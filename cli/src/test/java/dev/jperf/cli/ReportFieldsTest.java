package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * report -F/--fields, and --sort naming output fields (overhead, overhead_children, sample,
 * period): perf's columns and sort list, every line against perf 6.1's on the same file.
 */
class ReportFieldsTest {
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "c-process | -F overhead,sym",
        "c-process | -F sym,overhead,sample,period",
        "c-process | -F overhead,comm -s sym",
        "c-process | -F comm,dso -s sym",
        "c-process | -F overhead",
        "c-process | -F sample",
        "c-process | -F overhead_children,overhead,sym",
        "c-process | -F +sample -n",
        "c-process | -s sample,sym",
        "c-process | -s sym,overhead --show-total-period",
        "b-callchains-bpf | -F overhead,sym",
        "b-callchains-bpf | -F sym,overhead_children,sample",
        "b-callchains-bpf | -F overhead_children,overhead,comm -s sym -g none",
        "b-callchains-bpf | -F overhead_children,overhead,comm,sym -g none",
        "b-callchains-bpf | -F dso,overhead -t ;",
        "b-callchains-bpf | -s sym,sample -g caller",
        "b-callchains-bpf | -F overhead,sample,comm --percent-limit 2 -g none",
        "a-system-wide-bpf | -F overhead_children,overhead,sym,sample -t : -g none",
        "a-system-wide-bpf | -F period,cpu,overhead",
        "a-system-wide-bpf | -F overhead,dso -d [kernel.kallsyms]",
        "a-system-wide-bpf | -s sample,comm --percentage relative --comms workload",
        "g-two-events | --group -F overhead,sym,sample",
        "g-two-events | -F pid,overhead -q",
        "f-pipe | -F dso,sym,overhead -g none",
    })
    void linesEqualPerfs(String kase, String options) throws Exception {
        PerfOracle.assumeInstalled();
        CorpusFixture.installBinaries();
        List<String> args = new ArrayList<>(List.of("report", "-i", CorpusFixture.data(kase).toString(), "--stdio",
                "--kallsyms", CorpusFixture.kallsyms().toString()));
        args.addAll(List.of(options.split(" ")));
        List<String> theirs = PerfOracle.withoutTip(PerfOracle.run(args.toArray(String[]::new)));
        args.addAll(0, List.of("--buildid-dir", CorpusFixture.buildIdDir().toString()));
        Run ours = Run.of(args.toArray(String[]::new));
        assertEquals(0, ours.rc(), ours.err());
        assertEquals(theirs, PerfOracle.withoutTip(ours.out()));
    }

    /** perf's words for a field it does not know, or knows only in another mode; one line each. */
    @Test
    void badFieldsAreOneLineInPerfsWords() {
        String data = CorpusFixture.data("c-process").toString();
        String[][] cases = {{"-F", "foo", "Unknown --fields key: `foo'"}, {"-F", "+", "Invalid --fields key: `+'"},
            {"-s", "foo", "Unknown --sort key: `foo'"}, {"-F", "tlb", "Invalid --fields key: `tlb'"}};
        for (String[] c : cases) {
            Run r = Run.of("report", "-i", data, "--stdio", c[0], c[1]);
            assertEquals(1, r.rc(), r.err());
            assertEquals("", r.out());
            assertEquals("jperf report: " + c[2], r.err().strip());
        }
        Run r = Run.of("report", "-i", data, "--stdio", "-F", "overhead,sym", "--json");
        assertEquals(1, r.rc());
        assertTrue(r.err().lines().count() == 1 && r.err().contains("--json"), r.err());
        r = Run.of("report", "-i", data, "-F", "overhead,sym", "--pprof=-");
        assertEquals(Main.USAGE_ERROR, r.rc());
        assertEquals("", r.out());
        assertTrue(r.err().lines().count() == 1 && r.err().contains("--pprof"), r.err());
    }
}
