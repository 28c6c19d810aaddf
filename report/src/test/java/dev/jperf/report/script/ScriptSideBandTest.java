package dev.jperf.report.script;

import dev.jperf.report.CorpusFixture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.writer.PerfDataWriter;
import dev.jperf.report.PerfOracle;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --show-switch-events, --show-namespace-events, --show-cgroup-events, --show-round-events and
 * --show-lost-events against {@code perf script} with the same options, byte for byte: on a
 * system-wide recording perf makes here ({@code -a --switch-events --namespaces --all-cgroups}),
 * a per-task one (PERF_RECORD_SWITCH without the CPU-wide fields), and a file written here with
 * PERF_RECORD_LOST records (a full ring buffer cannot be caused on demand).
 */
class ScriptSideBandTest {
    static final String FIELDS = "comm,tid,pid,time,cpu,event,ip,sym,dso";

    @TempDir
    static Path tmp;

    @BeforeAll
    static void perfIsInstalled() {
        PerfOracle.assumeInstalled();
    }

    @Test
    void systemWideSwitchNamespaceCgroupAndRoundEvents() throws Exception {
        Path data = PerfOracle.record(tmp, "sw.data", "-a", "--switch-events", "--namespaces", "--all-cgroups", "--", "sleep", "1");
        String all = "--show-switch-events,--show-namespace-events,--show-cgroup-events,--show-task-events";
        for (String opts : List.of("--show-switch-events", "--show-namespace-events", "--show-cgroup-events",
                "--show-round-events", all)) {
            String want = perf(data, FIELDS, opts.split(","));
            String marker = switch (opts) {
                case "--show-namespace-events" -> "PERF_RECORD_NAMESPACES";
                case "--show-cgroup-events" -> "PERF_RECORD_CGROUP cgroup: ";
                case "--show-round-events" -> "PERF_RECORD_FINISHED_ROUND";
                default -> "PERF_RECORD_SWITCH_CPU_WIDE OUT ";
            };
            assertTrue(want.contains(marker), opts + ": " + marker);
            assertEquals(want, jperf(data, FIELDS, opts), opts);
        }
    }

    @Test
    void perTaskSwitchEvents() throws Exception {
        Path data = PerfOracle.record(tmp, "task.data", "--switch-events", "--", "sleep", "0.2");
        String want = perf(data, "comm,tid,time,ip", "--show-switch-events");
        assertTrue(want.contains("PERF_RECORD_SWITCH OUT        \n"), want);
        assertEquals(want, jperf(data, "comm,tid,time,ip", "--show-switch-events"));
    }

    @Test
    void lostEvents() throws Exception {
        Path data = tmp.resolve("lost.data");
        writeWithLost(data);
        for (String fields : List.of("comm,tid,time,cpu,ip", "tid,ip")) {
            String want = perf(data, fields, "--show-lost-events");
            assertTrue(want.contains("PERF_RECORD_LOST lost 42\n"), want);
            assertEquals(want, jperf(data, fields, "--show-lost-events"), fields);
        }
    }

    private static String perf(Path data, String fields, String... opts) throws Exception {
        List<String> args = new ArrayList<>(List.of("script", "-i", data.toString(), "-F", fields));
        args.addAll(List.of(opts));
        return PerfOracle.run(args.toArray(String[]::new));
    }

    private static String jperf(Path data, String fields, String opts) {
        List<String> o = List.of(opts.split(","));
        Script.Options options = Script.Options.defaults().withBuildIdDir(CorpusFixture.buildIdDir()).withFields(fields)
                .withShow(Script.Show.TASK, o.contains("--show-task-events"))
                .withShow(Script.Show.LOST, o.contains("--show-lost-events"))
                .withShow(Script.Show.SWITCH, o.contains("--show-switch-events"))
                .withShow(Script.Show.NAMESPACE, o.contains("--show-namespace-events"))
                .withShow(Script.Show.CGROUP, o.contains("--show-cgroup-events"))
                .withShow(Script.Show.ROUND, o.contains("--show-round-events"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PerfDataFile f = PerfDataFile.open(data)) {
            Script.run(f, options, out);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static final int PID = 4242;

    /**
     * cpu-clock, sample_type IP|TID|TIME|CPU|PERIOD, sample_id_all: a COMM, samples, and two LOST
     * records (their trailers give the thread, time and CPU perf prints).
     */
    private static void writeWithLost(Path data) throws Exception {
        ByteBuffer attr = le(PerfEventAttr.PERF_ATTR_SIZE_VER7);
        attr.putInt(0, 1).putInt(4, PerfEventAttr.PERF_ATTR_SIZE_VER7).putLong(8, 0).putLong(16, 4000)
                .putLong(24, 1 | 2 | 4 | 128 | 256).putLong(40, (1L << 9) | (1L << 10) | (1L << 18));
        try (PerfDataWriter w = PerfDataWriter.create(data, List.of(new PerfDataWriter.EventAttr(attr.array(),
                new long[0])))) {
            byte[] comm = "worker\0\0".getBytes(StandardCharsets.UTF_8);
            ByteBuffer c = record(3, 0, 8 + 8 + comm.length + 24);
            c.putInt(PID).putInt(PID).put(comm);
            w.append(trailer(c, 1_000_000_000L, 0).flip());
            long t = 1_000_100_000L;
            for (int i = 0; i < 6; i++) {
                if (i == 2 || i == 5) {
                    ByteBuffer l = record(2, 0, 8 + 16 + 24);
                    l.putLong(0).putLong(i == 2 ? 42 : 7);
                    w.append(trailer(l, t++, i % 2).flip());
                }
                ByteBuffer s = record(9, 2, 8 + 40);
                s.putLong(0x401000 + 16L * i).putInt(PID).putInt(PID).putLong(t++).putInt(i % 2).putInt(0)
                        .putLong(250000);
                w.append(s.flip());
            }
        }
    }

    private static ByteBuffer trailer(ByteBuffer b, long time, int cpu) {
        return b.putInt(PID).putInt(PID).putLong(time).putInt(cpu).putInt(0);
    }

    private static ByteBuffer record(int type, int misc, int size) {
        return le(size).putInt(type).putShort((short) misc).putShort((short) size);
    }

    private static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }
}
