package dev.jperf.recorder.stat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.format.bpf.BpfMapInfoLayout;
import dev.jperf.format.bpf.BpfProgInfoLayout;
import dev.jperf.nativeshim.Fd;
import dev.jperf.recorder.EventSpec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The bperf leader and the attr map protocol on the real kernel, under a private attr map in a
 * directory of /sys/fs/bpf (removed afterwards, which lets the leaders go): two sessions of one
 * event attr share one leader (same link, program and diff map), another attr gets its own, and
 * the leader's per-CPU readings grow while sched_switch fires.
 */
class BperfLeaderTest {
    private static final EventSpec CONTEXT_SWITCHES = EventSpec.parse("context-switches");
    private PrivateBpffsDir dir;
    private Path mapPath;

    @BeforeEach
    void setUp() throws IOException {
        dir = PrivateBpffsDir.create("jperf-bperf-test");
        mapPath = dir.attrMap();
    }

    @AfterEach
    void tearDown() throws IOException {
        if (dir != null) {
            dir.close();
        }
    }

    private static int[] cpus() throws IOException {
        int n = (int) Files.lines(Path.of("/proc/cpuinfo")).filter(l -> l.startsWith("processor")).count();
        int[] c = new int[n];
        for (int i = 0; i < n; i++) {
            c[i] = i;
        }
        return c;
    }

    @Test
    void twoSessionsOfOneAttrShareOneLeader() throws IOException {
        byte[] attr = BperfCounters.attr(CONTEXT_SWITCHES);
        BperfEntry first;
        int firstProg;
        try (BperfAttrMap map = BperfAttrMap.lock(mapPath, attr.length);
                BperfLeader l = BperfLeader.obtain(map, mapPath, attr, cpus(), "context-switches")) {
            assertFalse(l.reused());
            first = l.entry();
            firstProg = l.progId();
            assertEquals(first, map.lookup(attr));
        }
        assertTrue(Files.exists(BperfLeader.pinPath(mapPath, first.linkId())), "the leader's link is pinned");
        try (BperfAttrMap map = BperfAttrMap.lock(mapPath, attr.length);
                BperfLeader l = BperfLeader.obtain(map, mapPath, attr, cpus(), "context-switches")) {
            assertTrue(l.reused(), "the second session finds the first one's leader");
            assertEquals(first, l.entry());
            assertEquals(firstProg, l.progId());
        }
        byte[] other = BperfCounters.attr(EventSpec.parse("cpu-clock"));
        try (BperfAttrMap map = BperfAttrMap.lock(mapPath, attr.length);
                BperfLeader l = BperfLeader.obtain(map, mapPath, other, cpus(), "cpu-clock")) {
            assertFalse(l.reused());
            assertNotEquals(first.linkId(), l.entry().linkId());
        }
    }

    @Test
    void theLeadersReadingsGrowWhileSchedSwitchFires() throws Exception {
        byte[] attr = BperfCounters.attr(CONTEXT_SWITCHES);
        try (BperfAttrMap map = BperfAttrMap.lock(mapPath, attr.length);
                BperfLeader l = BperfLeader.obtain(map, mapPath, attr, cpus(), "context-switches")) {
            assertEquals(0, l.trigger(0), "BPF_PROG_TEST_RUN of the leader on CPU 0");
            int prev = prevReadings(l.progFd());
            try {
                long[] before = counters(prev);
                for (int i = 0; i < 50; i++) {
                    Thread.sleep(2); // each sleep is two context switches on some CPU
                }
                long[] after = counters(prev);
                long grown = 0;
                for (int cpu = 0; cpu < before.length; cpu++) {
                    assertTrue(after[cpu] >= before[cpu], "CPU " + cpu + " went back");
                    grown += after[cpu] - before[cpu];
                }
                assertTrue(grown >= 50, "context switches read by the leader: " + grown);
            } finally {
                Fd.close(prev);
            }
        }
    }

    /** The leader program's prev_readings map, found among the program's maps by name. */
    private static int prevReadings(int progFd) {
        Bpf bpf = new Bpf();
        Memory ids = new Memory(4 * 8);
        Memory info = new Memory(BpfProgInfoLayout.SIZE);
        info.clear();
        info.setInt(BpfProgInfoLayout.NR_MAP_IDS, 8);
        info.setLong(BpfProgInfoLayout.MAP_IDS, Pointer.nativeValue(ids));
        bpf.objGetInfoByFd(progFd, info, BpfProgInfoLayout.SIZE);
        for (int i = 0; i < info.getInt(BpfProgInfoLayout.NR_MAP_IDS); i++) {
            int fd = bpf.mapGetFdById(ids.getInt(4L * i));
            Memory mi = new Memory(BpfMapInfoLayout.SIZE);
            mi.clear();
            bpf.objGetInfoByFd(fd, mi, BpfMapInfoLayout.SIZE);
            if (mi.getString(BpfMapInfoLayout.NAME).equals("prev_readings")) {
                return fd;
            }
            Fd.close(fd);
        }
        throw new AssertionError("the leader has no prev_readings map");
    }

    /** prev_readings' counter per possible CPU. */
    private static long[] counters(int mapFd) throws IOException {
        String possible = Files.readString(Path.of("/sys/devices/system/cpu/possible")).strip();
        int n = Integer.parseInt(possible.substring(possible.lastIndexOf('-') + 1)) + 1;
        ByteBuffer b = ByteBuffer.wrap(new Bpf().mapLookupElem(mapFd, new byte[4], n * BperfLeader.READING_SIZE))
                .order(ByteOrder.LITTLE_ENDIAN);
        long[] c = new long[n];
        for (int cpu = 0; cpu < n; cpu++) {
            c[cpu] = b.getLong(cpu * BperfLeader.READING_SIZE);
        }
        return c;
    }
}
