package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * report's (and script's --stitch-lbr) options for data the corpus files have not (LBR call stacks, branch stacks) and
 * --pretty, against perf 6.1 on the same files: --stitch-lbr switched off with perf's warning,
 * --total-cycles ignored outside branch mode, --pretty changing nothing without --threads; stdout
 * line for line and stderr byte for byte; --ignore-vmlinux: perf then takes kernel symbols from
 * kallsyms alone, as jperf always does.
 */
class ReportBranchOptionsTest {
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "c-process | --stitch-lbr",
        "b-callchains-bpf | --stitch-lbr",
        "g-two-events | -q --stitch-lbr",
        "g-two-events | --stitch-lbr --no-stitch-lbr",
        "c-process | --total-cycles",
        "b-callchains-bpf | --total-cycles --no-children",
        "c-process | --pretty raw",
        "g-two-events | --pretty=normal",
        "b-callchains-bpf | --pretty anything",
        "b-callchains-bpf | --ignore-vmlinux",
        "g-two-events | --ignore-vmlinux --sort dso,sym",
    })
    void asPerf(String kase, String options) throws Exception {
        PerfOracle.assumeInstalled();
        List<String> args = new ArrayList<>(List.of("report", "-i", CorpusFixture.data(kase).toString(), "--stdio",
                "--kallsyms", CorpusFixture.kallsyms().toString()));
        args.addAll(List.of(options.split(" ")));
        dev.jperf.format.PerfOracle.Result theirs = dev.jperf.format.PerfOracle.perf(args.toArray(String[]::new));
        assertEquals(0, theirs.rc(), theirs.err());
        // the recording VM's vdso for both (perf is handed it by PerfOracle)
        args.addAll(List.of("--buildid-dir", CorpusFixture.buildIdDir().toString()));
        Run ours = Run.of(args.toArray(String[]::new));
        assertEquals(0, ours.rc(), ours.err());
        assertEquals(PerfOracle.withoutTip(theirs.out()), PerfOracle.withoutTip(ours.out()));
        assertEquals(theirs.err(), ours.err());
    }

    @ParameterizedTest(name = "script {0}")
    @CsvSource({"c-process", "b-callchains-bpf", "g-two-events"})
    void scriptStitchLbrAsPerf(String kase) throws Exception {
        PerfOracle.assumeInstalled();
        String[] args = {"script", "-i", CorpusFixture.data(kase).toString(), "--kallsyms",
            CorpusFixture.kallsyms().toString(), "--stitch-lbr"};
        dev.jperf.format.PerfOracle.Result theirs = dev.jperf.format.PerfOracle.perf(args);
        assertEquals(0, theirs.rc(), theirs.err());
        List<String> ours = new ArrayList<>(List.of(args));
        ours.addAll(List.of("--buildid-dir", CorpusFixture.buildIdDir().toString()));
        Run r = Run.of(ours.toArray(String[]::new));
        assertEquals(0, r.rc(), r.err());
        assertEquals(theirs.out(), r.out());
        assertEquals(theirs.err(), r.err());
    }

    @Test
    void branchHistoryWithoutCallchainsIsPerfsError() throws Exception {
        PerfOracle.assumeInstalled();
        String f = CorpusFixture.data("c-process").toString();
        // perf: "Selected -g or --branch-history. But no callchain or branch data." and no rows
        dev.jperf.format.PerfOracle.Result theirs = dev.jperf.format.PerfOracle.perf("report", "-i", f, "--stdio",
                "--branch-history");
        assertEquals(List.of(), PerfOracle.withoutTip(theirs.out()).stream().filter(l -> l.contains("%")).toList());
        org.junit.jupiter.api.Assertions.assertTrue(theirs.err().contains("But no callchain or branch data."), theirs.err());
        Run r = Run.of("report", "-i", f, "--stdio", "--branch-history");
        assertEquals(1, r.rc());
        assertEquals("", r.out());
        assertEquals("jperf report: " + f + ": --branch-history asks for call graphs but the samples have no callchains"
                + " (recorded without -g?)", r.err().strip());
    }

    @Test
    void branchHistoryWithCallchainsIsSaidNotComputed() {
        Run r = Run.of("report", "-i", CorpusFixture.data("b-callchains-bpf").toString(), "--stdio", "--branch-history");
        assertEquals(1, r.rc());
        assertEquals("", r.out());
        assertEquals("jperf report: --branch-history: branch records added to call chains are not computed by jperf yet",
                r.err().strip());
    }
}
