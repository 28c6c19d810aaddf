package dev.jperf.report.aggregate;

import dev.jperf.report.CorpusFixture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.writer.PerfDataWriter;
import dev.jperf.report.PerfOracle;
import dev.jperf.report.Report;
import dev.jperf.report.SyntheticData;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * perf 6.1's --sort sym rows when its hist-entry comparator is not a total order (sort__sym_cmp:
 * two entries without symbol by address alone, one without against one with by DSO name first)
 * and a found entry takes each merged sample's map: a search can miss the entry of its key, and
 * perf prints a second row of one BPF function, or one address of two DSOs as one row or two,
 * depending on the order samples came in. Files written here: KSYMBOL-registered "BPF" functions
 * (symbols, each its own DSO) and addresses in two mapped files perf cannot read (no symbols,
 * DSOs aaa.so and zzz.so, either side of the BPF names), samples in a seeded random order; perf is
 * the oracle, row for row and in its order.
 */
class SymSortSplitTest {
    private static final int PID = 4_000_123;
    private static final long BPF = 0xffffffffc0001000L;
    private static final long USER = 0x7f0000000000L;
    private static final String[] LIBS = {"/nonexistent/aaa.so", "/nonexistent/zzz.so"};
    private static final int FUNCTIONS = 4;

    @TempDir
    Path tmp;

    @Test
    void rowsAreSplitAsPerfSplitsThem() throws Exception {
        PerfOracle.assumeInstalled();
        int bpfSplits = 0;
        for (long seed = 1; seed <= 12; seed++) {
            Path data = tmp.resolve("seed" + seed + ".data");
            write(data, seed);
            List<String> theirs = rows(PerfOracle.run("report", "-i", data.toString(), "--stdio", "--sort", "sym"));
            assertEquals(theirs, rows(report(data, "sym")), "seed " + seed);
            long bpfRows = theirs.stream().filter(r -> r.contains("[k] bpf_prog_")).count();
            bpfSplits += bpfRows > FUNCTIONS ? 1 : 0;
            // with the DSO key first the comparator is a total order: one row per key
            List<String> byDso = rows(PerfOracle.run("report", "-i", data.toString(), "--stdio", "--sort", "dso,sym"));
            assertEquals(byDso, rows(report(data, "dso,sym")), "seed " + seed + " dso,sym");
        }
        // the files must show what this test is about (seed 3 splits a BPF function, for one)
        assertTrue(bpfSplits > 0, "no seed made perf split a BPF function's row");
    }

    private static List<String> rows(String report) {
        return report.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).map(String::strip).toList();
    }

    private static String report(Path data, String sort) {
        Report.Options o = Report.Options.builder(data).buildIdDir(CorpusFixture.buildIdDir()).sort(SortKey.parse(sort)).children(false)
                .callGraph(CallchainParams.NO_GRAPH).build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Report.run(o, new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    /**
     * cpu-clock, sample_type IP|TID|TIME|PERIOD, no sample_id_all (side band first, in file
     * order); 300 samples: a third in the BPF functions, the rest at 8 addresses of each file.
     */
    private static void write(Path data, long seed) throws Exception {
        Random r = new Random(seed);
        try (PerfDataWriter w = SyntheticData.create(data)) {
            SyntheticData.comm(w, PID, "splitter");
            for (int i = 0; i < LIBS.length; i++) {
                SyntheticData.mmap2(w, PID, USER + i * 0x100000L, 0x10000, 5, LIBS[i]);
            }
            for (int i = 0; i < FUNCTIONS; i++) {
                SyntheticData.bpfKsymbol(w, BPF + i * 0x100L, 0x80, "bpf_prog_0123456789abcdef_f" + i);
            }
            long t = 1_000_000;
            for (int i = 0; i < 300; i++) {
                boolean kernel = r.nextInt(3) == 0;
                long ip = kernel ? BPF + r.nextInt(FUNCTIONS) * 0x100L + r.nextInt(0x80)
                        : USER + r.nextInt(LIBS.length) * 0x100000L + r.nextInt(8) * 0x40;
                SyntheticData.sample(w, kernel ? 1 : 2, ip, PID, t += 1000, 250000);
            }
        }
    }
}
