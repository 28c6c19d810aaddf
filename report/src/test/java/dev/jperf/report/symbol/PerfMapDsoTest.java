package dev.jperf.report.symbol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.PerfOracle;
import dev.jperf.report.Report;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.format.writer.PerfDataWriter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
        Report.Options o = new Report.Options(data, SortKey.parse("dso,sym"), false, false, 0, null, null, null,
                null, null, null, false);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Report.run(o, new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    /** cpu-clock, sample_type IP|TID|TIME|PERIOD, no sample_id_all: records in file order. */
    private static void write(Path data, int pid) throws Exception {
        ByteBuffer attr = le(PerfDataWriter.PERF_ATTR_SIZE_VER7);
        attr.putInt(0, 1).putInt(4, PerfDataWriter.PERF_ATTR_SIZE_VER7).putLong(8, 0).putLong(16, 4000)
                .putLong(24, 1 | 2 | 4 | 256).putLong(40, (1L << 8) | (1L << 9) | (1L << 10));
        try (PerfDataWriter w = PerfDataWriter.create(data, List.of(new PerfDataWriter.EventAttr(attr.array(),
                new long[0])))) {
            byte[] comm = pad("jitted");
            ByteBuffer c = record(3, 0, 8 + 8 + comm.length);
            c.putInt(pid).putInt(pid).put(comm);
            w.append(c.flip());
            byte[] name = pad("//anon");
            ByteBuffer m = record(10, 2, 8 + 64 + name.length);
            m.putInt(pid).putInt(pid).putLong(BASE).putLong(0x10000).putLong(0).putInt(0).putInt(0).putLong(0)
                    .putLong(0).putInt(7).putInt(2).put(name);
            w.append(m.flip());
            long[] ips = {BASE + 0x110, BASE + 0x110, BASE + 0x220, BASE + 0x900};
            for (int i = 0; i < ips.length; i++) {
                ByteBuffer s = record(9, 2, 8 + 32);
                s.putLong(ips[i]).putInt(pid).putInt(pid).putLong(1_000_000L * (i + 1)).putLong(250000);
                w.append(s.flip());
            }
        }
    }

    private static ByteBuffer record(int type, int misc, int size) {
        ByteBuffer b = le(size);
        return b.putInt(type).putShort((short) misc).putShort((short) size);
    }

    private static byte[] pad(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return java.util.Arrays.copyOf(b, (b.length / 8 + 1) * 8);
    }

    private static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }
}
