package dev.jperf.report.aggregate;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.writer.PerfDataWriter;
import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import dev.jperf.report.Report;
import dev.jperf.report.SyntheticData;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hists' comparators against perf 6.1's sort order: every row of equal period, so the keys alone
 * order them (perf's se_sort, or se_cmp where a key has none, first when positive), and the
 * entries are found by perf's se_cmp (hist_entry__cmp) in an input tree filled in a different
 * order per seed. The values include each key's null: a sample in no mapping (no DSO, no symbol),
 * samples in unreadable files (a DSO, no symbol) and BPF functions (both), in processes whose comm
 * and pid orders differ.
 */
class HistsSortOrderTest {
    private static final long BPF = 0xffffffffc0001000L;
    private static final long USER = 0x7f0000000000L;
    /** Unmapped: no DSO. */
    private static final long NOWHERE = 0x5000;
    private static final String[] LIBS = {"/nonexistent/zzz.so", "/nonexistent/aaa.so"};
    private static final String[] COMMS = {"mid", "zed", "alpha"};

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "--sort {0}")
    @ValueSource(strings = {"dso", "sym", "dso,sym", "sym,dso", "comm", "pid", "comm,dso", "dso,comm", "pid,sym",
        "sym,pid", "comm,sym,dso", "dso,pid"})
    void everyLineEqualsPerf(String sort) throws Exception {
        PerfOracle.assumeInstalled();
        for (long seed = 1; seed <= 3; seed++) {
            Path data = tmp.resolve("seed" + seed + ".data");
            write(data, seed);
            List<String> theirs = PerfOracle.withoutTip(PerfOracle.run("report", "-i", data.toString(), "--stdio",
                    "--sort", sort));
            List<String> ours = PerfOracle.withoutTip(SortCollapseTest.report(Report.Options.builder(data)
                    .buildIdDir(CorpusFixture.buildIdDir()).sort(SortKey.parse(sort)).build()));
            SortCollapseTest.assertLines(theirs, ours, "seed " + seed + " --sort " + sort);
            // rows of equal period, which only the keys order (sym without a DSO key merges some)
            List<String> percents = theirs.stream().filter(l -> l.contains("%")).map(l -> l.strip().split(" ")[0]).toList();
            assertTrue(percents.stream().distinct().count() < percents.size(), String.join("\n", theirs));
        }
    }

    /**
     * Three processes, each with one sample at every place (an unmapped address, one address in
     * each unreadable file, each of two BPF functions), all of one period, in a seeded order.
     */
    private static void write(Path data, long seed) throws Exception {
        List<long[]> samples = new ArrayList<>();
        for (int p = 0; p < COMMS.length; p++) {
            int pid = 4_000_300 - 100 * p;
            samples.add(new long[] {2, NOWHERE, pid});
            for (int i = 0; i < LIBS.length; i++) {
                samples.add(new long[] {2, USER + i * 0x100000L + 0x40, pid});
            }
            for (int f = 0; f < 2; f++) {
                samples.add(new long[] {1, BPF + f * 0x100L + 0x10, pid});
            }
        }
        Collections.shuffle(samples, new Random(seed));
        try (PerfDataWriter w = SyntheticData.create(data)) {
            for (int p = 0; p < COMMS.length; p++) {
                int pid = 4_000_300 - 100 * p;
                SyntheticData.comm(w, pid, COMMS[p]);
                for (int i = 0; i < LIBS.length; i++) {
                    SyntheticData.mmap2(w, pid, USER + i * 0x100000L, 0x10000, 5, LIBS[i]);
                }
            }
            for (int f = 0; f < 2; f++) {
                SyntheticData.bpfKsymbol(w, BPF + f * 0x100L, 0x80, "bpf_prog_0123456789abcdef_f" + (1 - f));
            }
            long t = 1_000_000;
            for (long[] s : samples) {
                SyntheticData.sample(w, (int) s[0], s[1], (int) s[2], t += 1000, 250000);
            }
        }
    }
}
