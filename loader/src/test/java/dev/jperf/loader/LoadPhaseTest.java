package dev.jperf.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Memory;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.NativeException;
import java.nio.file.Files;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The load phase against the kernel: caller changes reach it, refusals say why, close unloads. */
class LoadPhaseTest {
    @BeforeAll
    static void needBpf() {
        try {
            new Bpf().progGetNextId(0);
        } catch (NativeException e) {
            assumeTrue(false, "bpf(2) refused here: " + e.getMessage());
        }
    }

    @Test
    void mapSizeSetBeforeLoadIsWhatTheKernelCreates() throws Exception {
        try (BpfObject o = BpfObject.open(ExternalObjectsTest.DIR.resolve("obj/bootstrap.bpf.o"))) {
            o.map("exec_start").setMaxEntries(100);
            o.program("handle_exit").setAutoload(false);
            o.load(LoadOptions.DEFAULT);
            Memory info = new Memory(80);
            info.clear();
            new Bpf().objGetInfoByFd(o.map("exec_start").fd(), info, 80);
            assertEquals(100, info.getInt(16), "bpf_map_info.max_entries");
            assertTrue(o.program("handle_exec").id() > 0);
            assertEquals(-1, o.program("handle_exit").fd(), "autoload off: not loaded");
            assertThrows(IllegalStateException.class, () -> o.map("exec_start").setMaxEntries(1));
        }
    }

    @Test
    void btfTheKernelRefusesIsAWarningAndTheLoadGoesOn() throws Exception {
        byte[] b = Files.readAllBytes(ExternalObjectsTest.DIR.resolve("obj/bootstrap.bpf.o"));
        int[] at = new int[1];
        dev.jperf.format.btf.Btf btf = HostileObjectsTest.btf(b, at);
        for (int id = 1; id <= btf.lastId(); id++) {
            if (btf.kind(id) == dev.jperf.format.btf.BtfKind.FUNC) {
                int p = at[0] + btf.typeOffset(id) + 4;
                HostileObjectsTest.le(b).putInt(p, HostileObjectsTest.le(b).getInt(p) | 3); // linkage 3: no such linkage
                break;
            }
        }
        try (BpfObject o = BpfObject.open("bad-btf.bpf.o", b)) {
            o.load(LoadOptions.DEFAULT);
            assertEquals(1, o.warnings().size(), o.warnings().toString());
            assertTrue(o.warnings().get(0).startsWith("the kernel refused the object's BTF (EINVAL: Invalid argument"),
                    o.warnings().get(0));
            for (BpfProgram p : o.programs()) {
                assertTrue(p.fd() >= 0, p.error());
            }
            assertEquals(0, o.map("exec_start").btfKeyTypeId(), "no BTF: maps without key/value types");
        }
    }

    @Test
    void closeUnloads() throws Exception {
        int id;
        try (BpfObject o = BpfObject.open(ExternalObjectsTest.DIR.resolve("obj/hardirqs.bpf.o"))) {
            o.load(LoadOptions.DEFAULT);
            id = o.program("irq_handler_entry").id();
            assertTrue(id > 0);
        }
        // the kernel frees a program asynchronously (RCU) once its last fd closes
        Bpf bpf = new Bpf();
        long until = System.nanoTime() + 5_000_000_000L;
        int fd = 0;
        while (System.nanoTime() < until && (fd = bpf.progGetFdByIdOrErrno(id)) >= 0) {
            dev.jperf.nativeshim.Fd.close(fd);
            Thread.sleep(20);
        }
        assertEquals(-Errno.ENOENT, fd, "program " + id + " still loaded after close");
    }

    @Test
    void refusalNamesProgramSectionErrnoAndVerifierLine() throws Exception {
        try (BpfObject o = BpfObject.open(ExternalObjectsTest.DIR.resolve("obj/softirqs.bpf.o"))) {
            for (BpfProgram p : o.programs()) {
                p.setAutoload(p.name().equals("softirq_exit"));
            }
            o.load(LoadOptions.DEFAULT);
            BpfProgram p = o.program("softirq_exit");
            assertEquals(Errno.EACCES, p.errno());
            assertTrue(p.error().startsWith("prog 'softirq_exit' (section 'raw_tp/softirq_exit'): EACCES: Permission denied: "),
                    p.error());
            String last = ObjectLoader.lastLine(p.verifierLog());
            assertTrue(!last.isEmpty() && p.error().endsWith(last), p.error());
            assertTrue(p.verifierLog().lines().count() > 5, "the whole log is kept");
        }
    }
}
