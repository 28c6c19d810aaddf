package dev.jperf.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfWriter;
import dev.jperf.nativeshim.Errno;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CO-RE relocation step by step (spec, match, calc, patch) on BTF built here, where each expected
 * value follows from the layouts below: the object's view of a type and the kernel's differ the way
 * kernels do (fields moved, widened, reordered, renamed flavors), and the instruction must end up
 * with the kernel's offset, size or value — or poisoned, or refused with libbpf's message.
 */
class CoreRelocationTest {
    private static final int LDX_W = 0x61;
    private static final int LDX_DW = 0x79;
    private static final int MOV64_K = 0xb7;

    /** The object's BTF: ids fixed by the order of the calls. */
    private static final BtfWriter LOCAL = new BtfWriter();
    private static final int L_INT = LOCAL.integer("int", 4, BtfWriter.SIGNED, 32);
    private static final int L_ANON = LOCAL.composite(BtfWriter.STRUCT, "", 4, "b", L_INT, 0, 0);
    private static final int L_ARR = LOCAL.array(L_INT, L_INT, 4);
    /** struct task { int a; struct { int b; }; int c[4]; int zz; }: b at 4, c at 8, zz at 24. */
    private static final int L_TASK = LOCAL.composite(BtfWriter.STRUCT, "task", 28,
            "a", L_INT, 0, 0, "", L_ANON, 32, 0, "c", L_ARR, 64, 0, "zz", L_INT, 192, 0);
    /** struct bits { int x:5 at bit 3; }. */
    private static final int L_BITS = LOCAL.composite(BtfWriter.STRUCT, "bits", 4, "x", L_INT, 3, 5);
    private static final int L_STATE = LOCAL.enumeration("state", 4, false, "RUNNING", 0, "SLEEPING", 1);
    private static final int L_PROTO = LOCAL.funcProto(L_INT, "p", L_INT);
    private static final int L_UINT = LOCAL.integer("unsigned int", 4, 0, 32);
    /** struct sz { unsigned int v; }: the kernel widened v to 8 bytes. */
    private static final int L_SZ = LOCAL.composite(BtfWriter.STRUCT, "sz", 4, "v", L_UINT, 0, 0);

    /** The kernel's BTF. */
    private static final BtfWriter KERNEL = new BtfWriter();
    private static final int K_INT = KERNEL.integer("int", 4, BtfWriter.SIGNED, 32);
    private static final int K_LONG = KERNEL.integer("long", 8, BtfWriter.SIGNED, 64);
    private static final int K_ANON = KERNEL.composite(BtfWriter.STRUCT, "", 4, "b", K_INT, 0, 0);
    private static final int K_ARR = KERNEL.array(K_INT, K_INT, 4);
    /** struct task { long pad; int a; struct { int b; }; int c[4]; }: a at 8, b at 12, c at 16, no zz. */
    private static final int K_TASK = KERNEL.composite(BtfWriter.STRUCT, "task", 32,
            "pad", K_LONG, 0, 0, "a", K_INT, 64, 0, "", K_ANON, 96, 0, "c", K_ARR, 128, 0);
    /** struct bits { int pad; int x:5 at bit 37; }. */
    private static final int K_BITS = KERNEL.composite(BtfWriter.STRUCT, "bits", 8, "pad", K_INT, 0, 0, "x", K_INT, 37, 5);
    private static final int K_STATE = KERNEL.enumeration("state", 4, false, "SLEEPING", 5, "RUNNING", 7);
    private static final int K_PROTO = KERNEL.funcProto(K_INT, "p", K_INT);
    private static final int K_PROTO2 = KERNEL.funcProto(K_INT, "p", K_INT, "q", K_INT);
    private static final int K_ULONG = KERNEL.integer("long unsigned int", 8, 0, 64);
    private static final int K_SZ = KERNEL.composite(BtfWriter.STRUCT, "sz", 8, "v", K_ULONG, 0, 0);

    private static Btf local;
    private static KernelBtf kernel;

    @BeforeAll
    static void btf(@TempDir Path dir) throws Exception {
        for (String s : new String[] {"0:0", "0:1:0", "0:2:3", "0:3", "0", "1", "0:9", "0:x"}) {
            LOCAL.string(s);
        }
        local = Btf.parse(LOCAL.bytes());
        Path vmlinux = dir.resolve("vmlinux");
        Files.write(vmlinux, KERNEL.bytes());
        kernel = KernelBtf.load(vmlinux);
    }

    private static CoreRelo relo(int typeId, String access, int kind) {
        return new CoreRelo(0, typeId, LOCAL.string(access), kind);
    }

    private static byte[] insn(int code, int off, int imm) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).put((byte) code).put((byte) 0x21)
                .putShort((short) off).putInt(imm).array();
    }

    private static byte[] relocate(CoreRelo r, byte[] insns) throws CoreRelocator.CoreException {
        new CoreRelocator(local, kernel).relocate("p", r, 0, insns, 0);
        return insns;
    }

    @Test
    void specFollowsAnonymousMembersAndArrayElements() throws CoreError {
        CoreSpec b = CoreSpec.parse(local, relo(L_TASK, "0:1:0", CoreRelo.BPF_CORE_FIELD_BYTE_OFFSET), "0:1:0");
        assertEquals(2, b.len, "the anonymous struct is no accessor");
        assertEquals("b", b.last().name());
        assertEquals(32, b.bitOffset);
        CoreSpec c3 = CoreSpec.parse(local, relo(L_TASK, "0:2:3", CoreRelo.BPF_CORE_FIELD_BYTE_OFFSET), "0:2:3");
        assertEquals(64 + 3 * 32, c3.bitOffset);
        assertEquals(null, c3.last().name(), "an array element has no name");
        CoreSpec second = CoreSpec.parse(local, relo(L_TASK, "1:0", CoreRelo.BPF_CORE_FIELD_BYTE_OFFSET), "1:0");
        assertEquals(28 * 8, second.bitOffset, "index 1 of the root: the next struct in an array of them");
    }

    @Test
    void specRefusesWhatLibbpfRefuses() {
        CoreRelo r = relo(L_TASK, "0:9", CoreRelo.BPF_CORE_FIELD_BYTE_OFFSET);
        for (String bad : new String[] {"", ":0", "0:9", "0:x", "0:12345678901"}) {
            CoreError e = assertThrows(CoreError.class, () -> CoreSpec.parse(local, r, bad), bad);
            assertEquals(Errno.EINVAL, e.errno, bad);
        }
        String tooLong = "0" + ":0".repeat(CoreSpec.BPF_CORE_SPEC_MAX_LEN);
        assertEquals(Errno.E2BIG, assertThrows(CoreError.class, () -> CoreSpec.parse(local, r, tooLong)).errno);
        assertEquals(Errno.EINVAL, assertThrows(CoreError.class,
                () -> CoreSpec.parse(local, relo(L_TASK, "1", CoreRelo.BPF_CORE_TYPE_SIZE), "1")).errno,
                "a type relocation's access string is \"0\"");
    }

    @Test
    void matchBuildsTheKernelsPath() throws CoreError {
        CoreSpec localSpec = CoreSpec.parse(local, relo(L_TASK, "0:1:0", CoreRelo.BPF_CORE_FIELD_BYTE_OFFSET), "0:1:0");
        CoreSpec targ = new CoreSpec(kernel.btf, K_TASK, localSpec.kind);
        assertTrue(CoreMatch.spec(localSpec, targ));
        assertEquals(96, targ.bitOffset);
        assertEquals(3, targ.rawLen, "root index, the anonymous member, b");
        assertEquals(2, targ.raw[1]);
        CoreSpec missing = CoreSpec.parse(local, relo(L_TASK, "0:3", CoreRelo.BPF_CORE_FIELD_BYTE_OFFSET), "0:3");
        assertFalse(CoreMatch.spec(missing, new CoreSpec(kernel.btf, K_TASK, missing.kind)), "no zz in the kernel");
    }

    @Test
    void typeCompatibilityAndShape() throws CoreError {
        assertTrue(CoreMatch.typesAreCompat(local, L_PROTO, kernel.btf, K_PROTO, 32));
        assertFalse(CoreMatch.typesAreCompat(local, L_PROTO, kernel.btf, K_PROTO2, 32), "parameter count differs");
        assertTrue(CoreMatch.typesMatch(local, L_STATE, kernel.btf, K_STATE, false, 32), "same names, other values");
        assertFalse(CoreMatch.typesMatch(local, L_SZ, kernel.btf, K_SZ, false, 32), "v's int size differs");
        assertTrue(CoreMatch.fieldsAreCompat(local, L_UINT, kernel.btf, K_ULONG), "ints of any size are compatible fields");
    }

    @Test
    void loadOffsetsAndImmediatesGetTheKernelsOffsets() throws Exception {
        assertEquals(12, Insns.off(relocate(relo(L_TASK, "0:1:0", CoreRelo.BPF_CORE_FIELD_BYTE_OFFSET),
                insn(LDX_W, 4, 0)), 0));
        assertEquals(16 + 12, Insns.imm(relocate(relo(L_TASK, "0:2:3", CoreRelo.BPF_CORE_FIELD_BYTE_OFFSET),
                insn(MOV64_K, 0, 8 + 12)), 0));
        assertEquals(8, Insns.off(relocate(relo(L_TASK, "0:0", CoreRelo.BPF_CORE_FIELD_BYTE_OFFSET),
                insn(LDX_W, 0, 0)), 0));
        assertEquals(32, Insns.imm(relocate(relo(L_TASK, "0", CoreRelo.BPF_CORE_TYPE_SIZE), insn(MOV64_K, 0, 28)), 0));
        assertEquals(K_TASK, Insns.imm(relocate(relo(L_TASK, "0", CoreRelo.BPF_CORE_TYPE_ID_TARGET),
                insn(MOV64_K, 0, L_TASK)), 0));
        assertEquals(L_TASK, Insns.imm(relocate(relo(L_TASK, "0", CoreRelo.BPF_CORE_TYPE_ID_LOCAL),
                insn(MOV64_K, 0, L_TASK)), 0));
        assertEquals(5, Insns.imm(relocate(relo(L_STATE, "1", CoreRelo.BPF_CORE_ENUMVAL_VALUE), insn(MOV64_K, 0, 1)), 0));
    }

    @Test
    void bitfieldsGetTheKernelsShifts() throws Exception {
        // kernel: x at bit 37 of 8 bytes, loaded as the int at byte 4: bits 5..9 of it
        assertEquals(4, Insns.imm(relocate(relo(L_BITS, "0:0", CoreRelo.BPF_CORE_FIELD_BYTE_OFFSET),
                insn(MOV64_K, 0, 0)), 0));
        assertEquals(64 - (37 + 5 - 32), Insns.imm(relocate(relo(L_BITS, "0:0", CoreRelo.BPF_CORE_FIELD_LSHIFT_U64),
                insn(MOV64_K, 0, 56)), 0));
        assertEquals(64 - 5, Insns.imm(relocate(relo(L_BITS, "0:0", CoreRelo.BPF_CORE_FIELD_RSHIFT_U64),
                insn(MOV64_K, 0, 59)), 0));
        assertEquals(1, Insns.imm(relocate(relo(L_BITS, "0:0", CoreRelo.BPF_CORE_FIELD_SIGNED), insn(MOV64_K, 0, 1)), 0));
    }

    @Test
    void aWidenedUnsignedFieldWidensTheLoad() throws Exception {
        byte[] in = relocate(relo(L_SZ, "0:0", CoreRelo.BPF_CORE_FIELD_BYTE_OFFSET), insn(LDX_W, 0, 0));
        assertEquals(LDX_DW, Insns.code(in, 0));
    }

    @Test
    void whatTheKernelLacksIsZeroOrPoison() throws Exception {
        assertEquals(0, Insns.imm(relocate(relo(L_TASK, "0:3", CoreRelo.BPF_CORE_FIELD_EXISTS), insn(MOV64_K, 0, 1)), 0));
        assertEquals(1, Insns.imm(relocate(relo(L_TASK, "0:0", CoreRelo.BPF_CORE_FIELD_EXISTS), insn(MOV64_K, 0, 1)), 0));
        byte[] poisoned = relocate(relo(L_TASK, "0:3", CoreRelo.BPF_CORE_FIELD_BYTE_OFFSET), insn(LDX_W, 24, 0));
        assertTrue(Insns.isCall(poisoned, 0));
        assertEquals(CorePatch.POISON_IMM, Insns.imm(poisoned, 0));
        assertEquals(0, Insns.imm(relocate(relo(L_SZ, "0", CoreRelo.BPF_CORE_TYPE_MATCHES), insn(MOV64_K, 0, 1)), 0),
                "sz exists but does not match");
    }

    @Test
    void refusalsCarryLibbpfsMessage() {
        CoreRelocator.CoreException e = assertThrows(CoreRelocator.CoreException.class,
                () -> relocate(relo(L_TASK, "0:1:0", CoreRelo.BPF_CORE_FIELD_BYTE_OFFSET), insn(LDX_W, 5, 0)));
        assertEquals("prog 'p': relo #0: unexpected insn #0 (LDX/ST/STX) value: got 5, exp 4 -> 12", e.getMessage());
        assertEquals(Errno.EINVAL, e.errno);
        e = assertThrows(CoreRelocator.CoreException.class,
                () -> relocate(relo(L_TASK, "0:9", CoreRelo.BPF_CORE_FIELD_BYTE_OFFSET), insn(LDX_W, 0, 0)));
        assertEquals("prog 'p': relo #0: parsing [" + L_TASK + "] STRUCT task + 0:9 failed: -22", e.getMessage());
    }

    @Test
    void candidatesThatDisagreeAreAnAmbiguity(@TempDir Path dir) throws Exception {
        BtfWriter k = new BtfWriter();
        int i = k.integer("int", 4, BtfWriter.SIGNED, 32);
        k.composite(BtfWriter.STRUCT, "task", 8, "pad", i, 0, 0, "a", i, 32, 0);
        k.composite(BtfWriter.STRUCT, "task___old", 4, "a", i, 0, 0);
        Path vmlinux = dir.resolve("vmlinux");
        Files.write(vmlinux, k.bytes());
        CoreRelocator core = new CoreRelocator(local, KernelBtf.load(vmlinux));
        CoreRelocator.CoreException e = assertThrows(CoreRelocator.CoreException.class,
                () -> core.relocate("p", relo(L_TASK, "0:0", CoreRelo.BPF_CORE_FIELD_BYTE_OFFSET), 0, insn(LDX_W, 0, 0), 0));
        assertEquals("prog 'p': relo #0: field offset ambiguity: 0 != 32", e.getMessage());
    }
}
