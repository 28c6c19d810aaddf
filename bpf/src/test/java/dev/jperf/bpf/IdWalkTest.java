package dev.jperf.bpf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Memory;
import dev.jperf.format.bpf.Uapi;
import dev.jperf.format.bpf.BpfMapInfoLayout;
import dev.jperf.nativeshim.Fd;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The walk over BPF ids that list, show and dump by name share: every live object once, in id
 * order, and objects unloaded between BPF_*_GET_NEXT_ID and BPF_*_GET_FD_BY_ID skipped.
 */
class IdWalkTest {
    private final KernelObjects kernel = new KernelObjects();

    @BeforeEach
    void root() throws Exception {
        assumeTrue(Files.readString(Path.of("/proc/self/status")).matches("(?s).*\\nUid:\\s+0\\s.*"), "needs root for bpf(2)");
    }

    private static int map(String name) {
        return Sys.mapCreate(Uapi.BPF_MAP_TYPE_ARRAY, name, 4, 4, 1, 0, 0, 0, 0);
    }

    private static int idOf(IdWalk walk, int fd) {
        return BpfMapInfo.decode(walk.info(fd)).id();
    }

    private int idOf(int fd) {
        return BpfMapInfo.decode(kernel.info(fd, new Memory(BpfMapInfoLayout.SIZE), BpfMapInfoLayout.SIZE, true)).id();
    }

    private static String nameOf(IdWalk walk, int fd) {
        return BpfMapInfo.decode(walk.info(fd)).name();
    }

    @Test
    void everyLiveObjectOnceInIdOrder() {
        int a = map("jperf_walk_a");
        int b = map("jperf_walk_b");
        try {
            IdWalk walk = new IdWalk(kernel, IdWalk.Kind.MAP, true);
            List<Integer> ids = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (int fd = walk.next(); fd >= 0; fd = walk.next()) {
                try {
                    assertEquals(walk.id(), idOf(walk, fd), "the fd is the id's object");
                    ids.add(walk.id());
                    names.add(nameOf(walk, fd));
                } finally {
                    Fd.close(fd);
                }
            }
            for (int i = 1; i < ids.size(); i++) {
                assertTrue(Integer.compareUnsigned(ids.get(i - 1), ids.get(i)) < 0, ids.toString());
            }
            assertTrue(names.contains("jperf_walk_a") && names.contains("jperf_walk_b"), names.toString());
            int[] fds = IdWalk.matching(kernel, IdWalk.Kind.MAP, (w, fd) -> nameOf(w, fd).equals("jperf_walk_b"));
            try {
                assertEquals(1, fds.length);
                assertEquals(idOf(b), idOf(fds[0]));
            } finally {
                for (int fd : fds) {
                    Fd.close(fd);
                }
            }
        } finally {
            Fd.close(a);
            Fd.close(b);
        }
    }

    @Test
    void objectsGoneMidWalkAreSkipped() throws Exception {
        int keep = map("jperf_walk_keep");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger churned = new AtomicInteger();
        // maps created and closed as fast as they can be: the newest ids, where every walk ends
        Thread churn = new Thread(() -> {
            while (!stop.get()) {
                Fd.close(map("jperf_walk_churn"));
                churned.incrementAndGet();
            }
        });
        churn.setDaemon(true);
        churn.start();
        int walks = 0;
        try {
            for (long end = System.nanoTime() + 1_500_000_000L; System.nanoTime() < end; walks++) {
                int[] fds = IdWalk.matching(kernel, IdWalk.Kind.MAP, (w, fd) -> nameOf(w, fd).equals("jperf_walk_keep"));
                for (int fd : fds) {
                    Fd.close(fd);
                }
                assertEquals(1, fds.length, "walk " + walks);
                Output o = new Output(true, false);
                new MapCommands(o).list(); // no "can't get map by id" for a map closed meanwhile
                assertTrue(o.finish().contains("\"name\":\"jperf_walk_keep\""));
            }
        } finally {
            stop.set(true);
            churn.join();
            Fd.close(keep);
        }
        assertTrue(churned.get() > walks, churned + " maps churned in " + walks + " walks");
    }
}
