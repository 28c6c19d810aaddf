package dev.jperf.nativeshim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Memory;
import dev.jperf.format.bpf.BpfProgInfoLayout;
import dev.jperf.format.bpf.Uapi;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class BpfTest {
    /** r0 = 0; exit */
    static final byte[] RETURN_ZERO = {(byte) 0xb7, 0, 0, 0, 0, 0, 0, 0, (byte) 0x95, 0, 0, 0, 0, 0, 0, 0};

    @BeforeEach
    void root() {
        assumeTrue(Root.isRoot(), Root.REASON);
    }

    @Test
    void loadFindFetchInfoAndSeeItGo() {
        Bpf bpf = new Bpf();
        int prog = bpf.progLoad(Uapi.BPF_PROG_TYPE_SOCKET_FILTER, RETURN_ZERO, "GPL", "jperf_shim_test");
        int id;
        try {
            Memory info = new Memory(BpfProgInfoLayout.SIZE);
            info.clear();
            assertEquals(BpfProgInfoLayout.SIZE, bpf.objGetInfoByFd(prog, info, BpfProgInfoLayout.SIZE));
            id = info.getInt(BpfProgInfoLayout.ID);
            assertEquals(Uapi.BPF_PROG_TYPE_SOCKET_FILTER, info.getInt(BpfProgInfoLayout.TYPE));
            assertEquals("jperf_shim_test", info.getString(BpfProgInfoLayout.NAME));
            assertEquals(16, info.getInt(BpfProgInfoLayout.XLATED_PROG_LEN));
            assertEquals(1, info.getInt(BpfProgInfoLayout.NR_JITED_KSYMS));

            // iteration finds it
            boolean found = false;
            for (int next = bpf.progGetNextId(0); next != 0; next = bpf.progGetNextId(next)) {
                found |= next == id;
            }
            assertTrue(found, "BPF_PROG_GET_NEXT_ID never returned " + id);

            // a second fd by id describes the same program; arrays come back when asked for
            int byId = bpf.progGetFdById(id);
            try {
                Memory ksyms = new Memory(8);
                Memory again = new Memory(BpfProgInfoLayout.SIZE);
                again.clear();
                again.setInt(BpfProgInfoLayout.NR_JITED_KSYMS, 1);
                again.setLong(BpfProgInfoLayout.JITED_KSYMS, com.sun.jna.Pointer.nativeValue(ksyms));
                bpf.objGetInfoByFd(byId, again, BpfProgInfoLayout.SIZE);
                assertArrayEquals(info.getByteArray(BpfProgInfoLayout.TAG, 8), again.getByteArray(BpfProgInfoLayout.TAG, 8));
                assertNotEquals(0L, ksyms.getLong(0), "jited_ksyms[0]");
            } finally {
                Fd.close(byId);
            }
        } finally {
            Fd.close(prog);
        }
        // the program is freed after its last fd goes (RCU: allow a moment; seconds on a loaded machine)
        NativeException gone = null;
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (gone == null && System.nanoTime() < deadline) {
            try {
                Fd.close(bpf.progGetFdById(id));
                Thread.sleep(1);
            } catch (NativeException e) {
                gone = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        assertTrue(gone != null, "program " + id + " still there");
        assertEquals(Errno.ENOENT, gone.errno());
        assertEquals("bpf(BPF_PROG_GET_FD_BY_ID, id " + id + ") failed: No such file or directory (ENOENT)", gone.getMessage());
    }

    @Test
    void rejectedProgramCarriesTheVerifierLine() {
        byte[] noExit = {(byte) 0xb7, 0, 0, 0, 0, 0, 0, 0};
        NativeException e = assertThrows(NativeException.class,
                () -> new Bpf().progLoad(Uapi.BPF_PROG_TYPE_SOCKET_FILTER, noExit, "GPL", "bad"));
        assertEquals(Errno.EINVAL, e.errno());
        assertTrue(e.getMessage().startsWith("bpf(BPF_PROG_LOAD, bad): verifier: "), e.getMessage());
    }

    @Test
    void vmlinuxBtfIsIdOneAndFetchable() {
        Bpf bpf = new Bpf();
        int first = bpf.btfGetNextId(0);
        assumeTrue(first != 0, "kernel has no BTF objects");
        int fd = bpf.btfGetFdById(first);
        try {
            Memory info = new Memory(BpfProgInfoLayout.BTF_INFO_SIZE);
            info.clear();
            bpf.objGetInfoByFd(fd, info, BpfProgInfoLayout.BTF_INFO_SIZE);
            assertEquals(first, info.getInt(BpfProgInfoLayout.BTF_INFO_ID));
            assertTrue(info.getInt(BpfProgInfoLayout.BTF_INFO_BTF_SIZE) > 24);
        } finally {
            Fd.close(fd);
        }
    }

    @Test
    void enableStatsGivesAnFd() {
        int fd = new Bpf().enableStats(BpfAttrLayout.BPF_STATS_RUN_TIME);
        assertTrue(fd >= 0);
        Fd.close(fd);
    }

    @Test
    void goneIdIsEnoent() {
        NativeException e = assertThrows(NativeException.class, () -> new Bpf().progGetFdById(-2));
        assertEquals(Errno.ENOENT, e.errno());
    }
}
