package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Memory;
import dev.jperf.format.bpf.Uapi;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.samples.RunCounter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jperf stat -b} against the kernel's own numbers: a program that counts its runs in a
 * map, attached as a uprobe to a private copy of /bin/true (uprobes follow the inode, so nothing
 * else on the machine runs it) and run only by jperf's workload: jperf's run count equals the
 * map's, its run time the kernel's run_time_ns delta; afterwards the statistics are off again.
 */
class StatBpfTest {
    private static final int RUNS = 40;

    @TempDir
    Path tmp;
    private Path binary;

    @BeforeEach
    void setUp() throws Exception {
        assumeTrue(Files.readString(Path.of("/proc/self/status")).matches("(?s).*\\nUid:\\s+0\\s.*"), "needs root for bpf(2)");
        binary = tmp.resolve("true");
        Files.copy(Path.of("/bin/true"), binary, StandardCopyOption.COPY_ATTRIBUTES);
    }

    /** e_entry of a PIE: Debian's /bin/true maps its text at the same offset in file and memory. */
    private long entry() throws Exception {
        return ByteBuffer.wrap(Files.readAllBytes(binary)).order(ByteOrder.LITTLE_ENDIAN).getLong(24);
    }

    private String loop() {
        return "i=0; while [ $i -lt " + RUNS + " ]; do " + binary + "; i=$((i+1)); done";
    }

    @Test
    void runCountEqualsTheMapsAndRunTimeTheKernels() throws Exception {
        try (RunCounter c = RunCounter.attachUprobe(binary, entry())) {
            assumeStatsOff(c);
            long mapBefore = c.runs();
            long[] kernelBefore = c.kernelStats();
            Run r = Run.of("stat", "-b", Integer.toString(c.id()), "-j", "--", "sh", "-c", loop());
            long mapRuns = c.runs() - mapBefore;
            long kernelNs = c.kernelStats()[0] - kernelBefore[0];
            assertEquals(0, r.rc(), r.err());
            List<String> lines = r.err().lines().toList();
            assertTrue(lines.get(0).startsWith("jperf stat: "), lines.get(0));
            assertTrue(lines.get(0).endsWith("counting runs and run time with the kernel's BPF statistics (BPF_ENABLE_STATS)"),
                    lines.get(0));
            String prefix = c.id() + ":" + RunCounter.NAME + "/";
            assertEquals(RUNS, mapRuns);
            assertEquals(mapRuns, (long) value(r.err(), prefix + "run_cnt"));
            double ns = value(r.err(), prefix + "run_time") * 1e6;
            assertTrue(kernelNs > 0);
            assertEquals(kernelNs, ns, 0.1 * kernelNs, "jperf " + ns + " ns, kernel " + kernelNs + " ns");
            assertEquals(ns / RUNS, value(r.err(), prefix + "avg_run_time"), 0.01 * ns / RUNS);
            assertStatsOff(c);

            Run table = Run.of("stat", "-b", Integer.toString(c.id()), "--", "sh", "-c", loop());
            assertTrue(table.err().contains(" Performance counter stats for 'BPF program(s) " + c.id() + "':\n\n"), table.err());
            Matcher m = Pattern.compile("\n +" + RUNS + " +" + Pattern.quote(prefix) + "run_cnt +# +[0-9.]+ K?/sec")
                    .matcher(table.err());
            assertTrue(m.find(), table.err());
            assertTrue(table.err().contains(" msec " + prefix + "run_time"), table.err());
            assertTrue(table.err().contains(" ns   " + prefix + "avg_run_time"), table.err());
        }
    }

    @Test
    void intervalsSplitTheRuns() throws Exception {
        try (RunCounter c = RunCounter.attachUprobe(binary, entry())) {
            Run r = Run.of("stat", "-b", Integer.toString(c.id()), "-I", "100", "-x,", "--", "sh", "-c",
                    loop() + "; sleep 0.25; " + loop());
            long total = 0;
            int lines = 0;
            for (String l : r.err().lines().toList()) {
                if (l.contains("/run_cnt,")) {
                    total += Long.parseLong(l.split(",")[1]);
                    lines++;
                }
            }
            assertTrue(lines >= 3, r.err());
            assertEquals(2L * RUNS, total, r.err());
        }
    }

    @Test
    void badProgramIdsAreOneLineAndLeaveNothingOn() throws Exception {
        try (RunCounter c = RunCounter.attachUprobe(binary, entry())) {
            assumeStatsOff(c);
            List<String> fds = StatTest.openFds();
            Bpf bpf = new Bpf();
            // a program that is gone
            int prog = bpf.progLoad(Uapi.BPF_PROG_TYPE_SOCKET_FILTER,
                    new byte[] {(byte) 0xb7, 0, 0, 0, 0, 0, 0, 0, (byte) 0x95, 0, 0, 0, 0, 0, 0, 0}, "GPL", "jperf_gone");
            int dead = id(bpf, prog);
            Fd.close(prog);
            awaitGone(bpf, dead);
            Run r = Run.of("stat", "-b", c.id() + "," + dead, "--", "true");
            assertEquals(1, r.rc());
            assertEquals("jperf stat: no BPF program with id " + dead + " is loaded (bpf(BPF_PROG_GET_FD_BY_ID, id " + dead
                    + ") failed: No such file or directory (ENOENT))\n", r.err());
            // an id that is a map's, not a program's
            int map = bpf.mapCreate(Uapi.BPF_MAP_TYPE_ARRAY, 4, 8, 1, "jperf_not_prog");
            try {
                int mapId = id(bpf, map);
                assumeTrue(!isProgram(bpf, mapId), "a program has id " + mapId + " too");
                r = Run.of("stat", "-b", Integer.toString(mapId));
                assertEquals(1, r.rc());
                assertTrue(r.err().startsWith("jperf stat: no BPF program with id " + mapId + " is loaded ("), r.err());
                assertEquals(1, r.err().lines().count(), r.err());
            } finally {
                Fd.close(map);
            }
            r = Run.of("stat", "-b", "12x");
            assertEquals(129, r.rc());
            assertEquals("jperf stat: option '-b' expects positive ids, not '12x' (jperf stat -h lists the options)\n",
                    r.err());
            assertEquals(fds, StatTest.openFds(), "fds left open");
            assertStatsOff(c);
        }
    }

    private static int id(Bpf bpf, int fd) {
        Memory info = new Memory(256);
        info.clear();
        bpf.objGetInfoByFd(fd, info, 64);
        return info.getInt(4); // bpf_prog_info.id and bpf_map_info.id are both at 4
    }

    private static boolean isProgram(Bpf bpf, int id) {
        try {
            Fd.close(bpf.progGetFdById(id));
            return true;
        } catch (NativeException e) {
            return false;
        }
    }

    private static void awaitGone(Bpf bpf, int id) throws InterruptedException {
        for (int i = 0; i < 500 && isProgram(bpf, id); i++) {
            Thread.sleep(2);
        }
        assumeTrue(!isProgram(bpf, id), "program " + id + " still loaded");
    }

    /** The kernel counts runs only while someone holds BPF statistics on; another user here would blur the checks. */
    private void assumeStatsOff(RunCounter c) throws Exception {
        long before = c.kernelStats()[1];
        new ProcessBuilder(binary.toString()).start().waitFor();
        assumeTrue(c.kernelStats()[1] == before, "BPF statistics are on (another process enabled them)");
    }

    /** After jperf: the program still runs (the map counts it) but the kernel no longer counts. */
    private void assertStatsOff(RunCounter c) throws Exception {
        long runs = c.runs();
        long before = c.kernelStats()[1];
        new ProcessBuilder(binary.toString()).start().waitFor();
        assertEquals(runs + 1, c.runs());
        assertEquals(before, c.kernelStats()[1], "BPF statistics left on");
    }

    /** A JSON row's counter-value, by event name. */
    private static double value(String json, String event) {
        Matcher m = Pattern.compile("\"counter-value\" : \"([0-9.]+)\", \"unit\" : \"[a-z]*\", \"event\" : \""
                + Pattern.quote(event) + "\"").matcher(json);
        assertTrue(m.find(), event + " in " + json);
        return Double.parseDouble(m.group(1));
    }
}
