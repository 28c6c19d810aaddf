package dev.jperf.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Memory;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.BpfAttrLayout;
import dev.jperf.nativeshim.BpfProgInfoLayout;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Attached programs run: their run count (BPF_ENABLE_STATS) grows once attached, and stops with the link closed. */
class AttachTest {
    @BeforeAll
    static void needBpf() {
        assumeTrue(Files.isDirectory(ExternalObjectsTest.DIR), "no external objects");
        try {
            new Bpf().progGetNextId(0);
        } catch (NativeException e) {
            assumeTrue(false, "bpf(2) refused here: " + e.getMessage());
        }
    }

    static long runCount(BpfProgram p) {
        Memory info = new Memory(BpfProgInfoLayout.SIZE);
        info.clear();
        new Bpf().objGetInfoByFd(p.fd(), info, BpfProgInfoLayout.SIZE);
        return info.getLong(BpfProgInfoLayout.RUN_CNT);
    }

    /** Runs {@code /bin/true} a few times: execs, exits, scheduler switches. */
    static void activity() throws Exception {
        for (int i = 0; i < 5; i++) {
            new ProcessBuilder("/bin/true").start().waitFor();
        }
    }

    void runsWhileAttached(String object, String program) throws Exception {
        int stats = new Bpf().enableStats(BpfAttrLayout.BPF_STATS_RUN_TIME);
        try (BpfObject o = BpfObject.open(ExternalObjectsTest.DIR.resolve("obj").resolve(object))) {
            for (BpfProgram p : o.programs()) {
                p.setAutoload(p.name().equals(program));
            }
            o.load(LoadOptions.DEFAULT);
            BpfProgram p = o.program(program);
            assertTrue(p.fd() >= 0, p.error());
            activity();
            assertEquals(0, runCount(p), "ran before being attached");
            try (BpfLink link = BpfLink.attach(p)) {
                activity();
                assertTrue(runCount(p) > 0, program + " never ran attached to " + link.target());
            }
            long after = runCount(p);
            activity();
            assertEquals(after, runCount(p), "ran after its link closed");
        } finally {
            Fd.close(stats);
        }
    }

    @Test
    void tracepointThroughTracefs() throws Exception {
        runsWhileAttached("bootstrap.bpf.o", "handle_exec");
    }

    @Test
    void rawTracepoint() throws Exception {
        runsWhileAttached("runqlat.bpf.o", "handle_sched_switch");
    }

    @Test
    void tpBtf() throws Exception {
        runsWhileAttached("runqlat.bpf.o", "sched_switch");
    }

    @Test
    void kprobeWithoutKprobesIsOneLine() throws Exception {
        assumeTrue(!Files.exists(Path.of("/sys/bus/event_source/devices/kprobe")), "kprobes exist here");
        try (BpfObject o = BpfObject.open(ExternalObjectsTest.DIR.resolve("obj/kprobe.bpf.o"))) {
            o.load(LoadOptions.DEFAULT);
            BpfObjectException e = assertThrows(BpfObjectException.class, () -> BpfLink.attach(o.program("do_unlinkat")));
            assertTrue(e.getMessage().contains("no kprobe PMU"), e.getMessage());
        }
    }

    @Test
    void uprobeOnAFunctionOfABinary() throws Exception {
        Path libc = Path.of("/lib/x86_64-linux-gnu/libc.so.6");
        assumeTrue(Files.exists(libc), "no " + libc);
        int stats = new Bpf().enableStats(BpfAttrLayout.BPF_STATS_RUN_TIME);
        try (BpfObject o = BpfObject.open(ExternalObjectsTest.DIR.resolve("obj/uprobe.bpf.o"))) {
            o.load(LoadOptions.DEFAULT);
            BpfProgram p = o.program("uprobe_add");
            try (BpfLink link = BpfLink.uprobe(p, false, -1, libc, "execve", 0)) {
                activity();
                assertTrue(runCount(p) > 0, "uprobe on " + link.target() + " never ran");
            }
        } finally {
            Fd.close(stats);
        }
    }
}
