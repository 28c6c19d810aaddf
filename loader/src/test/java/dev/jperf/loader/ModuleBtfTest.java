package dev.jperf.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfKind;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.NativeException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CO-RE candidates from a module's BTF when vmlinux has none (libbpf's load_module_btfs): a
 * kernel BTF directory holding vmlinux and a module whose split BTF defines
 * {@code struct jperf_mod_state { long pad[3]; int a; long b; }}; the object's local type has b at
 * byte 8, the module's at 32, and the relocated instruction must say 32.
 */
class ModuleBtfTest {
    @TempDir
    Path dir;

    @Test
    void coreRelocationFindsTheTypeInAModule() throws Exception {
        assumeTrue(Files.isReadable(KernelBtf.VMLINUX), "no " + KernelBtf.VMLINUX);
        try {
            new Bpf().progGetNextId(0);
        } catch (NativeException e) {
            assumeTrue(false, "bpf(2) refused here: " + e.getMessage());
        }
        byte[] vmlinux = Files.readAllBytes(KernelBtf.VMLINUX);
        Files.write(dir.resolve("vmlinux"), vmlinux);
        Files.write(dir.resolve("jperf_test_mod"), module(Btf.parse(vmlinux)));
        try (BpfObject o = BpfObject.open(LibbpfAgreementTest.DIR.resolve("modcore.bpf.o"))) {
            BpfProgram p = o.program("modcore");
            assertEquals(8, Insns.imm(p.insns, 0), "the local offset of b");
            o.load(new LoadOptions(1, dir.resolve("vmlinux")));
            assertTrue(p.fd() >= 0, p.error());
            assertEquals(32, Insns.imm(p.insns, 0), "b's offset in the module's struct");
        }
    }

    /** Split BTF on {@code base}: ARRAY long[3], then STRUCT jperf_mod_state { pad, a, b }. */
    static byte[] module(Btf base) {
        int intId = base.findByName("int", BtfKind.INT);
        int longId = base.findByName("long int", BtfKind.INT);
        int first = base.lastId() + 1;
        int baseStr = base.stringSectionLength();
        ByteArrayOutputStream strs = new ByteArrayOutputStream();
        strs.write(0);
        int structName = baseStr + add(strs, "jperf_mod_state");
        int pad = baseStr + add(strs, "pad");
        int a = baseStr + add(strs, "a");
        int b = baseStr + add(strs, "b");
        ByteBuffer t = ByteBuffer.allocate(12 + 12 + 12 + 36).order(ByteOrder.LITTLE_ENDIAN);
        t.putInt(0).putInt(BtfKind.ARRAY.number() << 24).putInt(0).putInt(longId).putInt(intId).putInt(3);
        t.putInt(structName).putInt(BtfKind.STRUCT.number() << 24 | 3).putInt(40);
        t.putInt(pad).putInt(first).putInt(0);
        t.putInt(a).putInt(intId).putInt(192);
        t.putInt(b).putInt(longId).putInt(256);
        byte[] s = strs.toByteArray();
        ByteBuffer out = ByteBuffer.allocate(Btf.HEADER_SIZE + t.capacity() + s.length).order(ByteOrder.LITTLE_ENDIAN);
        out.putShort((short) Btf.BTF_MAGIC).put((byte) 1).put((byte) 0).putInt(Btf.HEADER_SIZE);
        out.putInt(0).putInt(t.capacity()).putInt(t.capacity()).putInt(s.length);
        out.put(t.array()).put(s);
        return out.array();
    }

    private static int add(ByteArrayOutputStream strs, String s) {
        int off = strs.size();
        strs.writeBytes((s + "\0").getBytes(StandardCharsets.UTF_8));
        return off;
    }
}
