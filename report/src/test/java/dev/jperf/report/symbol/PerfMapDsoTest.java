package dev.jperf.report.symbol;

import dev.jperf.report.CorpusFixture;
import dev.jperf.report.aggregate.CallchainParams;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.PerfOracle;
import dev.jperf.report.Report;
import dev.jperf.report.SyntheticData;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.format.writer.PerfDataWriter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Samples in anonymous executable memory named by {@code /tmp/perf-PID.map}: perf shows their DSO
 * as {@code [JIT] tid PID} in reports (dso__set_basename) and as the map file in perf script. The
 * file is written here (cpu-clock, COMM, an //anon rwx MMAP2, samples in two mapped functions and
 * one address the map does not name), the map file in /tmp under a pid no test uses; perf is the
 * oracle.
 */
class PerfMapDsoTest {
    private static final long BASE = 0x7f1234560000L;

    @TempDir
    Path tmp;

    @Test
    void jitDsoIsNamedAsPerfNamesIt() throws Exception {
        PerfOracle.assumeInstalled();
        int pid = 3_000_000 + ThreadLocalRandom.current().nextInt(900_000);
        Path map = Path.of("/tmp/perf-" + pid + ".map");
        Path data = tmp.resolve("perf.data");
        try {
            Files.writeString(map, Long.toHexString(BASE + 0x100) + " 40 LFoo;.bar\n"
                    + Long.toHexString(BASE + 0x200) + " 80 void Baz.qux(int)\n");
            write(data, pid);
            String ours = report(data);
            String theirs = PerfOracle.run("report", "-i", data.toString(), "--stdio", "--sort", "dso,sym");
            assertTrue(theirs.contains("[JIT] tid " + pid), theirs);
            assertEquals(rows(theirs), rows(ours));
            String script = PerfOracle.run("script", "-i", data.toString(), "-F", "comm,tid,ip,sym,dso");
            assertTrue(script.contains("(" + map + ")"), script);
        } finally {
            Files.deleteIfExists(map);
        }
    }

    private static List<String> rows(String report) {
        return report.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).map(String::strip).toList();
    }

    private static String report(Path data) {
        Report.Options o = Report.Options.builder(data).buildIdDir(CorpusFixture.buildIdDir()).sort(SortKey.parse("dso,sym")).children(false)
                .callGraph(CallchainParams.NO_GRAPH).build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Report.run(o, new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    /** cpu-clock, sample_type IP|TID|TIME|PERIOD, no sample_id_all: records in file order. */
    private static void write(Path data, int pid) throws Exception {
        try (PerfDataWriter w = SyntheticData.create(data)) {
            SyntheticData.comm(w, pid, "jitted");
            SyntheticData.mmap2(w, pid, BASE, 0x10000, 7, "//anon");
            long[] ips = {BASE + 0x110, BASE + 0x110, BASE + 0x220, BASE + 0x900};
            for (int i = 0; i < ips.length; i++) {
                SyntheticData.sample(w, 2, ips[i], pid, 1_000_000L * (i + 1), 250000);
            }
        }
    }
}
