package dev.jperf.report.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.writer.PerfDataWriter;
import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import dev.jperf.report.Report;
import dev.jperf.report.SyntheticData;
import dev.jperf.report.session.SampleFilter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * perf 6.1's rows and order when SYM is sorted with other keys: its input rb-tree, searched with
 * a comparator that is not a total order without a DSO key (SymSortSplitTest), splits entries of
 * one key; with a COMM key perf's collapse pass (hists__collapse_resort) inserts them in that
 * tree's order into a second rb-tree, merging an entry into an equal one its search meets, so a
 * split entry is merged again or stays two rows. Also the Symbol column padded to its width when
 * another key follows, and a CPU of -1. perf is the oracle: every line but the random Tip.
 */
class SortCollapseTest {
    private static final long BPF = 0xffffffffc0001000L;
    private static final long USER = 0x7f0000000000L;
    private static final String[] LIBS = {"/nonexistent/aaa.so", "/nonexistent/zzz.so"};
    private static final int FUNCTIONS = 4;
    private static final List<String> SORTS = List.of("comm,sym", "sym,comm", "sym,pid", "pid,sym", "sym,dso",
            "sym,comm,dso", "sym");

    @TempDir
    Path tmp;

    /**
     * Files written here: KSYMBOL "BPF" functions and addresses of two unreadable files, samples in
     * a seeded random order over processes. With one process, comm,sym and sym search the same
     * input tree, so fewer comm,sym rows than sym rows are merges of perf's collapse pass; with
     * two processes of one comm and one of another, rows of one comm and symbol twice are splits
     * the collapse pass kept.
     */
    @Test
    void everyLineEqualsPerfOnFilesWrittenHere() throws Exception {
        PerfOracle.assumeInstalled();
        int merged = 0;
        int keptSplit = 0;
        for (long seed = 1; seed <= 5; seed++) {
            for (String[] comms : List.of(new String[] {"splitter"}, new String[] {"splitter", "splitter", "other"})) {
                Path data = tmp.resolve("seed" + seed + "-" + comms.length + ".data");
                write(data, seed, comms);
                Map<String, List<String>> theirs = new HashMap<>();
                for (String sort : SORTS) {
                    List<String> lines = PerfOracle.withoutTip(PerfOracle.run("report", "-i", data.toString(), "--stdio",
                            "--sort", sort));
                    assertLines(lines, PerfOracle.withoutTip(report(Report.Options.builder(data).buildIdDir(CorpusFixture.buildIdDir()).sort(SortKey.parse(sort)).build())),
                            data.getFileName() + " --sort " + sort);
                    theirs.put(sort, rows(lines));
                }
                List<String> commSym = theirs.get("comm,sym");
                if (comms.length == 1 && commSym.size() < theirs.get("sym").size()) {
                    merged++;
                }
                if (comms.length > 1 && new HashSet<>(commSym.stream().map(SortCollapseTest::key).toList()).size()
                        < commSym.size()) {
                    keptSplit++;
                }
            }
        }
        // the files must show what this test is about
        assertTrue(merged > 0, "no seed made perf's collapse pass merge a split entry");
        assertTrue(keptSplit > 0, "no seed left perf a split entry after its collapse pass");
    }

    /**
     * Corpus files (the corpus kallsyms and binaries): b's sym,comm with call graphs merges
     * entries with graphs in perf's collapse pass (graph counts as perf's callchain_merge leaves
     * them); the others show the Symbol padding (also before a column a one-value filter elides:
     * perf's last column is the sort list's last), CPU -1 (case c has no PERF_SAMPLE_CPU) and
     * threads renamed after their samples (case a's pid).
     */
    @ParameterizedTest(name = "{0} --sort {1} {2}")
    @CsvSource(delimiter = '|', value = {
        "b-callchains-bpf|sym,comm|",
        "b-callchains-bpf|sym,comm|-g graph,0.5,caller,function,count",
        "b-callchains-bpf|sym,comm|-g none",
        "b-callchains-bpf|comm,sym|-g none",
        "b-callchains-bpf|sym,dso|-g none",
        "a-system-wide-bpf|sym,comm|",
        "a-system-wide-bpf|sym,dso,comm|",
        "a-system-wide-bpf|pid,sym|",
        "c-process|sym,cpu|",
        "c-process|sym,comm|--comms workload",
        "c-process|sym,dso|--dsos workload",
        "c-process-stripped|sym,comm|",
    })
    void everyLineEqualsPerfOnCorpus(String kase, String sort, String extra) throws Exception {
        PerfOracle.assumeInstalled();
        Path kallsyms = CorpusFixture.kallsyms();
        CorpusFixture.installBinaries();
        Path data = CorpusFixture.data(kase);
        List<String> args = new ArrayList<>(List.of("report", "-i", data.toString(), "--stdio", "--sort", sort,
                "--kallsyms", kallsyms.toString()));
        Report.Options.Builder o = Report.Options.builder(data).buildIdDir(CorpusFixture.buildIdDir()).sort(SortKey.parse(sort))
                .symbols(kallsyms, null);
        if (extra != null) {
            String[] w = extra.split(" ");
            args.addAll(List.of(w));
            switch (w[0]) {
                case "-g" -> o.callGraph(CallchainParams.parse(w[1]));
                case "--comms" -> o.filter(SampleFilter.tasks(Set.of(w[1]), null, null));
                case "--dsos" -> o.filter(SampleFilter.NONE.withDsos(Set.of(w[1])));
                default -> throw new IllegalArgumentException(extra);
            }
        }
        List<String> theirs = PerfOracle.withoutTip(PerfOracle.run(args.toArray(String[]::new)));
        assertLines(theirs, PerfOracle.withoutTip(report(o.build())), kase + " --sort " + sort + " " + extra);
        assertTrue(rows(theirs).size() > 3, "perf printed too few rows");
    }

    static void assertLines(List<String> theirs, List<String> ours, String what) {
        for (int i = 0; i < Math.min(theirs.size(), ours.size()); i++) {
            assertEquals(theirs.get(i), ours.get(i), what + ": line " + (i + 1));
        }
        assertEquals(theirs.size(), ours.size(), what + ": number of lines");
    }



    private static List<String> rows(List<String> lines) {
        return lines.stream().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
    }

    /** A row without its percentage: the values of its keys. */
    private static String key(String row) {
        return row.strip().substring(row.strip().indexOf(' ')).strip();
    }


    static String report(Report.Options o) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Report.run(o, new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    /**
     * cpu-clock, sample_type IP|TID|TIME|PERIOD, no sample_id_all (side band first, in file order):
     * one process per comm given (pids 4000123...), each mapping both files at the same addresses;
     * 400 samples over the processes: a third in the BPF functions, the rest at 8 addresses of each
     * file.
     */
    private static void write(Path data, long seed, String[] comms) throws Exception {
        Random r = new Random(seed);
        try (PerfDataWriter w = SyntheticData.create(data)) {
            for (int p = 0; p < comms.length; p++) {
                SyntheticData.comm(w, 4_000_123 + p, comms[p]);
                for (int i = 0; i < LIBS.length; i++) {
                    SyntheticData.mmap2(w, 4_000_123 + p, USER + i * 0x100000L, 0x10000, 5, LIBS[i]);
                }
            }
            for (int i = 0; i < FUNCTIONS; i++) {
                SyntheticData.bpfKsymbol(w, BPF + i * 0x100L, 0x80, "bpf_prog_0123456789abcdef_f" + i);
            }
            long t = 1_000_000;
            for (int i = 0; i < 400; i++) {
                boolean kernel = r.nextInt(3) == 0;
                long ip = kernel ? BPF + r.nextInt(FUNCTIONS) * 0x100L + r.nextInt(0x80)
                        : USER + r.nextInt(LIBS.length) * 0x100000L + r.nextInt(8) * 0x40;
                SyntheticData.sample(w, kernel ? 1 : 2, ip, 4_000_123 + r.nextInt(comms.length), t += 1000, 250000);
            }
        }
    }
}
