package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Memory;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.format.bpf.BpfMapInfoLayout;
import dev.jperf.format.bpf.BpfProgInfoLayout;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.recorder.stat.PrivateBpffsDir;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code jperf stat --bpf-counters} on the real kernel, under a private attr map in a directory of
 * /sys/fs/bpf (removed afterwards, letting its leaders go). Where the kernel refuses the fexit
 * follower (this VM: EPERM at load) the run says so in one line naming the kernel's answer, exits
 * non-zero and leaves nothing of its own loaded; the leader stays pinned and a second jperf
 * process shares it. Counting through followers is tested where the kernel loads them.
 */
class StatBpfCountersTest {
    private static final Pattern REFUSED = Pattern.compile(
            "jperf stat: --bpf-counters: the kernel refused the follower \\(fexit on the leader's on_switch, prog id"
                    + " (\\d+)\\): (E[A-Z]+): .+");
    /** What a run loads of its own: the follower program and its maps (names cut to 15 characters). */
    private static final Set<String> FOLLOWER_OBJECTS = Set.of("fexit_on_switch", "accum_readings", "filter",
            "bperf_fo.bss");

    private PrivateBpffsDir bpffs;
    private Path dir;
    private Path map;

    @BeforeEach
    void setUp() throws IOException {
        bpffs = PrivateBpffsDir.create("jperf-stat-bperf");
        dir = bpffs.path();
        map = bpffs.attrMap();
    }

    @AfterEach
    void tearDown() throws IOException {
        if (bpffs != null) {
            bpffs.close();
        }
    }

    private String[] stat(String... rest) {
        List<String> a = new ArrayList<>(List.of("stat", "--bpf-counters", "--bpf-attr-map", map.toString(), "-e",
                "context-switches"));
        a.addAll(List.of(rest));
        return a.toArray(new String[0]);
    }

    @Test
    void aRefusedFollowerIsOneLineAndLeavesNothingOfTheRunBehind() throws Exception {
        Run r = Run.of(stat("-a", "--", "sleep", "0.1"));
        Matcher m = REFUSED.matcher(r.err().strip());
        assumeTrue(m.matches() || r.rc() != 0, "the kernel loads fexit followers: counting is tested instead");
        assertTrue(m.matches(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertNotEquals(0, r.rc());
        assertEquals("", r.out());
        // the leader stays, pinned beside the map, as perf's stays while a session holds it
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(2, s.count(), "the attr map and one leader link are pinned");
        }
        List<String> left = followerObjectsLoaded();
        assertTrue(left.isEmpty(), "the run left behind: " + left);
    }

    @Test
    void anAttrMapThatIsNotOneIsOneLine() throws Exception {
        Run missing = Run.of("stat", "--bpf-counters", "--bpf-attr-map", dir.resolve("no/such/dir").toString(), "-e",
                "context-switches", "-a", "--", "true");
        assertEquals(1, missing.rc(), missing.err());
        assertEquals(1, missing.err().lines().count(), missing.err());
        assertTrue(missing.err().startsWith("jperf stat: --bpf-counters: cannot pin or open the attr map "), missing.err());
        Bpf bpf = new Bpf();
        int fd = bpf.mapCreate(1, 4, 8, 16, "not_attrs");
        try {
            assertEquals(0, bpf.objPin(fd, map.toString()));
        } finally {
            Fd.close(fd);
        }
        Run wrong = Run.of(stat("-a", "--", "true"));
        assertEquals(1, wrong.rc(), wrong.err());
        assertEquals("jperf stat: --bpf-counters: " + map + " is not a perf_event_attr map of this layout (map type 1,"
                + " key 4 bytes, value 8; expected hash, 128, 8)", wrong.err().strip());
    }

    @Test
    void twoJperfProcessesShareOneLeader() throws Exception {
        StatTest.Result other = StatTest.exec(StatTest.jperf(List.of(), stat("-a", "--", "true")));
        Matcher first = REFUSED.matcher(other.err().strip());
        Run r = Run.of(stat("-a", "--", "true"));
        Matcher second = REFUSED.matcher(r.err().strip());
        assumeTrue(first.matches() && second.matches(), "the kernel loads fexit followers: " + other.err() + r.err());
        assertEquals(first.group(1), second.group(1), "both runs follow the same leader program");
        List<Path> pins;
        try (Stream<Path> s = Files.list(dir)) {
            pins = s.filter(p -> p.getFileName().toString().startsWith("perf_attr_map_leader_")).toList();
        }
        assertEquals(1, pins.size(), "one leader pinned: " + pins);
        assertEquals(Integer.parseInt(first.group(1)), pinnedLinkProgId(pins.get(0)));
    }

    @Test
    void countsContextSwitchesThroughFollowers() throws Exception {
        Run r = Run.of(stat("-a", "-x,", "--", "sh", "-c", "i=0; while [ $i -lt 50 ]; do sleep 0.001; i=$((i+1)); done"));
        Matcher m = REFUSED.matcher(r.err().strip());
        assumeTrue(!m.matches(), () -> "fexit followers refused by the kernel at load: " + m.group(2) + " ("
                + r.err().strip() + ")");
        assertEquals(0, r.rc(), r.err());
        String row = r.err().lines().filter(l -> l.contains(",context-switches,")).findFirst().orElseThrow();
        long count = Long.parseLong(row.substring(0, row.indexOf(',')));
        assertTrue(count >= 100, "each of 50 sleeps switches out and back in: " + row);
        assertTrue(followerObjectsLoaded().isEmpty(), "the follower is unloaded at the end");
    }

    /** The program of the link pinned at {@code pin} (struct bpf_link_info: type, id, prog_id). */
    private static int pinnedLinkProgId(Path pin) {
        Bpf bpf = new Bpf();
        int fd = bpf.objGet(pin.toString());
        try {
            Memory info = new Memory(12);
            info.clear();
            bpf.objGetInfoByFd(fd, info, 12);
            return info.getInt(8);
        } finally {
            Fd.close(fd);
        }
    }

    /**
     * Programs and maps named as the follower's still loaded, waiting up to 10 s for the kernel to
     * free what was closed (maps and programs go after an RCU grace period, longer under load).
     */
    private static List<String> followerObjectsLoaded() throws InterruptedException {
        List<String> left = List.of();
        for (long end = System.nanoTime() + 10_000_000_000L; System.nanoTime() < end; Thread.sleep(50)) {
            left = scan();
            if (left.isEmpty()) {
                break;
            }
        }
        return left;
    }

    private static List<String> scan() {
        Bpf bpf = new Bpf();
        List<String> found = new ArrayList<>();
        Memory info = new Memory(Math.max(BpfProgInfoLayout.SIZE, BpfMapInfoLayout.SIZE));
        for (int id = bpf.progGetNextId(0); id != 0; id = bpf.progGetNextId(id)) {
            int fd = bpf.progGetFdByIdOrErrno(id);
            if (fd < 0) {
                continue;
            }
            info.clear();
            bpf.objGetInfoByFd(fd, info, BpfProgInfoLayout.SIZE);
            Fd.close(fd);
            String name = info.getString(BpfProgInfoLayout.NAME);
            if (FOLLOWER_OBJECTS.contains(name)) {
                found.add("prog " + id + " " + name);
            }
        }
        for (int id = bpf.mapGetNextId(0); id != 0; id = bpf.mapGetNextId(id)) {
            int fd;
            try {
                fd = bpf.mapGetFdById(id);
            } catch (NativeException e) {
                continue;
            }
            info.clear();
            bpf.objGetInfoByFd(fd, info, BpfMapInfoLayout.SIZE);
            Fd.close(fd);
            String name = info.getString(BpfMapInfoLayout.NAME);
            if (FOLLOWER_OBJECTS.contains(name)) {
                found.add("map " + id + " " + name);
            }
        }
        return found;
    }
}
