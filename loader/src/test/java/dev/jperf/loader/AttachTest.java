package dev.jperf.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Memory;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.BpfAttrLayout;
import dev.jperf.format.bpf.BpfProgInfoLayout;
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

    /** Loads {@code program} alone and attaches it with {@code attach}, then runs {@code activity}: it must have run. */
    interface Attach {
        BpfLink to(BpfProgram p) throws Exception;
    }

    interface Activity {
        void run() throws Exception;
    }

    void runsWhenAttached(String object, String program, Attach attach, Activity activity) throws Exception {
        int stats = new Bpf().enableStats(BpfAttrLayout.BPF_STATS_RUN_TIME);
        try (BpfObject o = BpfObject.open(ExternalObjectsTest.DIR.resolve("obj").resolve(object))) {
            for (BpfProgram p : o.programs()) {
                p.setAutoload(p.name().equals(program));
            }
            o.load(LoadOptions.DEFAULT);
            BpfProgram p = o.program(program);
            try (BpfLink link = attach.to(p)) {
                activity.run();
                assertTrue(runCount(p) > 0, program + " never ran attached to " + link.target());
            }
        } finally {
            Fd.close(stats);
        }
    }

    @Test
    void tcOnLoopbackThroughTcx() throws Exception {
        runsWhenAttached("tc.bpf.o", "tc_ingress", p -> BpfLink.tc(p, BpfLink.ifindex("lo"), true), () -> {
            try (java.net.DatagramSocket s = new java.net.DatagramSocket()) {
                byte[] b = new byte[8];
                for (int i = 0; i < 5; i++) {
                    s.send(new java.net.DatagramPacket(b, b.length, java.net.InetAddress.getLoopbackAddress(), 9));
                }
            }
        });
    }

    @Test
    void perfEventOnCpuClockOfEveryCpu() throws Exception {
        int stats = new Bpf().enableStats(BpfAttrLayout.BPF_STATS_RUN_TIME);
        java.util.List<BpfLink> links = new java.util.ArrayList<>();
        try (BpfObject o = BpfObject.open(ExternalObjectsTest.DIR.resolve("obj/profile.bpf.o"))) {
            o.load(LoadOptions.DEFAULT);
            BpfProgram p = o.program("profile");
            for (int cpu : AttachedObjects.onlineCpus()) {
                links.add(BpfLink.cpuClock(p, cpu, 999));
            }
            long until = System.nanoTime() + 300_000_000L;
            while (System.nanoTime() < until) {
                Thread.onSpinWait(); // this thread's CPU is sampled while it spins
            }
            assertTrue(runCount(p) > 0, "profile never ran on a cpu-clock sample");
        } finally {
            for (BpfLink l : links) {
                l.close();
            }
            Fd.close(stats);
        }
    }

    @Test
    void xdpOnLoopback() throws Exception {
        int stats = new Bpf().enableStats(BpfAttrLayout.BPF_STATS_RUN_TIME);
        try (BpfObject o = BpfObject.open(LibbpfAgreementTest.DIR.resolve("xdp_pass.bpf.o"))) {
            o.load(LoadOptions.DEFAULT);
            BpfProgram p = o.program("xdp_count");
            try (BpfLink link = BpfLink.xdp(p, BpfLink.ifindex("lo"))) {
                try (java.net.DatagramSocket s = new java.net.DatagramSocket()) {
                    byte[] b = new byte[8];
                    for (int i = 0; i < 5; i++) {
                        s.send(new java.net.DatagramPacket(b, b.length, java.net.InetAddress.getLoopbackAddress(), 9));
                    }
                }
                assertTrue(runCount(p) > 0, "xdp_count never ran on " + link.target());
            }
        } finally {
            Fd.close(stats);
        }
    }

    @Test
    void iterLink() throws Exception {
        try (BpfObject o = BpfObject.open(ExternalObjectsTest.DIR.resolve("obj/task_iter.bpf.o"))) {
            o.load(LoadOptions.DEFAULT);
            try (BpfLink link = BpfLink.attach(o.program("get_tasks"))) {
                assertEquals("iter/task", link.target());
            }
        }
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
