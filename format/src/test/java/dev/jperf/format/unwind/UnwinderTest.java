package dev.jperf.format.unwind;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.io.ByteSource;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The unwinder on stacks made here, where the right chain is known: frames whose CFI the test
 * writes (.eh_frame bytes in a minimal ELF), and the hostile cases: CFI whose rows make a loop,
 * a stack pointer outside the copy, a truncated copy, truncated and garbage CFI: the chain ends,
 * nothing is thrown.
 */
class UnwinderTest {
    /** perf's x86 register mask of --call-graph dwarf (AX..SS, R8..R15). */
    static final long MASK = 0xff0fffL;
    static final long TEXT = 0x401000;
    static final long SP = 0x7ffc_0000_1000L;

    static Cfi standard;

    /**
     * One CIE (CFA rsp+8, ra at cfa-8) and FDEs: [TEXT, +0x100) a frameless function with 0x18 bytes
     * of locals after 0x10 (CFA rsp+0x20), [+0x100, +0x200) the same with rbx pushed at 1, and
     * [+0x200, +0x300) whose RA column is undefined (an outermost frame, as _start).
     */
    @BeforeAll
    static void cfi() throws Exception {
        standard = Cfi.of(ElfFile.of("t", elf(ehFrame(
                fde(TEXT, 0x100, new byte[] {0x40 + 0x10, 0x0e, 0x20}),
                fde(TEXT + 0x100, 0x100, new byte[] {0x41, 0x0e, 0x10, (byte) 0x83, 0x02, 0x4f, 0x0e, 0x30}),
                fde(TEXT + 0x200, 0x100, new byte[] {0x07, 0x10})))));
        assertEquals(3, standard.fdeCount());
    }

    static Unwinder.Modules modules(Cfi cfi) {
        return (pc, vaddr) -> {
            if (pc >= TEXT && pc < TEXT + 0x10000) {
                vaddr[0] = pc;
                return cfi;
            }
            return null;
        };
    }

    /** Registers in perf's order for MASK: ax bx cx dx si di bp sp ip flags cs ss r8..r15. */
    static long[] regs(long ip, long sp, long bp, long bx) {
        long[] r = new long[Long.bitCount(MASK)];
        r[1] = bx;
        r[6] = bp;
        r[7] = sp;
        r[8] = ip;
        return r;
    }

    static long[] unwind(Cfi cfi, long[] regs, byte[] stack, int dyn) {
        long[] out = new long[127];
        int n = new Unwinder().unwind(regs, MASK, ByteSource.wrap("stack", stack), 0, dyn, modules(cfi), out, 127);
        return Arrays.copyOf(out, n);
    }

    static byte[] words(long... w) {
        ByteBuffer b = ByteBuffer.allocate(8 * w.length + 64).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : w) {
            b.putLong(v);
        }
        return b.array();
    }

    @Test
    void framesThroughCfiToTheOutermost() {
        // leaf at TEXT+0x20 (CFA sp+0x20): its RA at sp+0x18 -> TEXT+0x150 (rbx saved at cfa-16,
        // CFA sp+0x30 there), whose RA -> TEXT+0x210 (RA undefined: the end)
        long[] st = new long[12];
        st[3] = TEXT + 0x150;
        st[4 + 4] = 0x1234; // rbx, at the second frame's CFA - 16
        st[4 + 5] = TEXT + 0x210;
        long[] got = unwind(standard, regs(TEXT + 0x20, SP, 0, 7), words(st), 8 * st.length);
        assertArrayEquals(new long[] {TEXT + 0x20, TEXT + 0x14f, TEXT + 0x20f}, got);
    }

    @Test
    void framePointerWhereNoFdeCovers() {
        // TEXT+0x800: mapped, no FDE: [rbp] is the caller's rbp, [rbp+8] the return address
        long[] st = new long[8];
        st[2] = 0; // caller's rbp: the end of the frame-pointer chain
        st[3] = TEXT + 0x210;
        long[] got = unwind(standard, regs(TEXT + 0x800, SP, SP + 16, 0), words(st), 8 * st.length);
        assertArrayEquals(new long[] {TEXT + 0x800, TEXT + 0x20f}, got);
    }

    @Test
    void aMissingModuleEndsTheChain() {
        long[] st = new long[8];
        st[3] = 0x1000; // a return address nothing maps
        long[] got = unwind(standard, regs(TEXT + 0x20, SP, 0, 0), words(st), 8 * st.length);
        assertArrayEquals(new long[] {TEXT + 0x20, 0xfff}, got);
    }

    @Test
    void cfiThatLoopsEnds() throws Exception {
        // CFA = rsp + 0 and RA at cfa+0: every step returns to itself with the same sp
        Cfi loop = Cfi.of(ElfFile.of("t", elf(ehFrame(fde(TEXT, 0x100, new byte[] {0x0e, 0x00, (byte) 0x90, 0x00})))));
        long[] st = new long[8];
        Arrays.fill(st, TEXT + 0x21);
        long[] got = unwind(loop, regs(TEXT + 0x20, SP, 0, 0), words(st), 8 * st.length);
        assertEquals(1, got.length, "no progress: " + Arrays.toString(got));
        // a cycle through the stack: the return addresses lead back down; sp must grow
        Cfi down = Cfi.of(ElfFile.of("t", elf(ehFrame(fde(TEXT, 0x100, new byte[] {0x12, 0x07, 0x02}))))); // def_cfa_sf rsp, -16
        got = unwind(down, regs(TEXT + 0x20, SP, 0, 0), words(st), 8 * st.length);
        assertTrue(got.length <= 2, Arrays.toString(got));
    }

    @Test
    void spOutsideTheStackEnds() throws Exception {
        long[] st = new long[8];
        st[3] = TEXT + 0x150;
        // the copy is of 64 bytes at SP, but the registers say the stack is elsewhere: the copy is
        // at the sampled sp by definition, so a CFA based on another register reads outside it;
        // perf's access_mem answers such a read 0 (and an error), libunwind steps to pc 0: perf's -1
        Cfi viaRbx = Cfi.of(ElfFile.of("t", elf(ehFrame(fde(TEXT, 0x100, new byte[] {0x0c, 0x03, 0x10})))));
        long[] got = unwind(viaRbx, regs(TEXT + 0x20, SP, 0, SP - 0x100000), words(st), 8 * st.length);
        assertArrayEquals(new long[] {TEXT + 0x20, -1L}, got);
        got = unwind(viaRbx, regs(TEXT + 0x20, SP, 0, -8), words(st), 8 * st.length);
        assertArrayEquals(new long[] {TEXT + 0x20, -1L}, got);
    }

    @Test
    void truncatedStackCopyEnds() {
        long[] st = new long[12];
        st[3] = TEXT + 0x150;
        st[9] = TEXT + 0x210;
        // dyn_size 0x20: the first RA (at sp+0x18) is the copy's last word, which perf does not
        // read: 0 for libunwind, the chain's last frame perf's -1 (as on a JVM's launcher thread,
        // whose large frames outgrow the default 8 KiB copy; DwarfRuntimesTest)
        long[] got = unwind(standard, regs(TEXT + 0x20, SP, 0, 0), words(st), 0x20);
        assertArrayEquals(new long[] {TEXT + 0x20, -1L}, got);
        got = unwind(standard, regs(TEXT + 0x20, SP, 0, 0), words(st), 0x28);
        assertArrayEquals(new long[] {TEXT + 0x20, TEXT + 0x14f, -1L}, got);
        got = unwind(standard, regs(TEXT + 0x20, SP, 0, 0), new byte[0], 0);
        assertArrayEquals(new long[] {TEXT + 0x20, -1L}, got);
    }

    @Test
    void truncatedAndGarbageCfiEnd() throws Exception {
        byte[] good = ehFrame(fde(TEXT, 0x100, new byte[] {0x40 + 0x10, 0x0e, 0x20}),
                fde(TEXT + 0x100, 0x100, new byte[] {0x41, 0x0e, 0x10, (byte) 0x83, 0x02, 0x4f, 0x0e, 0x30}));
        long[] st = new long[12];
        st[3] = TEXT + 0x150;
        Random r = new Random(25);
        for (int cut = 0; cut < good.length; cut++) {
            Cfi c = Cfi.of(ElfFile.of("t", elf(Arrays.copyOf(good, cut))));
            long[] got = unwind(c, regs(TEXT + 0x20, SP, 0, 0), words(st), 8 * st.length);
            assertTrue(got.length >= 1 && got.length <= 3, "cut at " + cut);
        }
        for (int i = 0; i < 3000; i++) {
            byte[] bad = good.clone();
            for (int k = 0; k < 1 + r.nextInt(4); k++) {
                bad[r.nextInt(bad.length)] = (byte) r.nextInt(256);
            }
            Cfi c = Cfi.of(ElfFile.of("t", elf(bad)));
            long[] regs = regs(TEXT + r.nextInt(0x200), SP, r.nextLong(), r.nextLong());
            long[] got = unwind(c, regs, words(st), 8 * st.length);
            assertTrue(got.length >= 1 && got.length <= 127);
        }
        // garbage in a real binary's .eh_frame_hdr and .eh_frame: every lookup ends, none throws
        Path libc = Path.of("/lib/x86_64-linux-gnu/libc.so.6");
        if (Files.isRegularFile(libc)) {
            byte[] image = Files.readAllBytes(libc);
            ElfFile elf = ElfFile.of("libc", image);
            long off = elf.section(".eh_frame").orElseThrow().offset();
            long size = elf.section(".eh_frame").orElseThrow().size();
            for (int i = 0; i < 2000; i++) {
                image[(int) (off + r.nextLong(size))] = (byte) r.nextInt(256);
            }
            Cfi c = Cfi.of(ElfFile.of("libc", image));
            CfiRow row = new CfiRow();
            for (int i = 0; i < 20000; i++) {
                c.row(0x26000 + r.nextInt(0x180000), row);
            }
        }
    }

    @Test
    void expressionsThatLoopOrUnderflowEnd() throws Exception {
        // CFA expression: DW_OP_skip -3 (itself): an endless loop, cut by the operation budget
        Cfi loops = Cfi.of(ElfFile.of("t", elf(ehFrame(fde(TEXT, 0x100,
                new byte[] {0x0f, 0x03, 0x2f, (byte) 0xfd, (byte) 0xff})))));
        assertArrayEquals(new long[] {TEXT + 0x20}, unwind(loops, regs(TEXT + 0x20, SP, 0, 0), words(0, 0, 0), 24));
        // DW_OP_plus on an empty stack
        Cfi under = Cfi.of(ElfFile.of("t", elf(ehFrame(fde(TEXT, 0x100, new byte[] {0x0f, 0x01, 0x22})))));
        assertArrayEquals(new long[] {TEXT + 0x20}, unwind(under, regs(TEXT + 0x20, SP, 0, 0), words(0, 0, 0), 24));
    }

    // --- a minimal ELF with .eh_frame at EH (no .eh_frame_hdr: the index walks the section) ---

    static final long EH = 0x400000;

    /** An FDE for [pc, pc+len) with {@code insns}; pcrel sdata4 pointers (CIE augmentation zR 0x1b). */
    static byte[] fde(long pc, long len, byte[] insns) {
        ByteBuffer b = ByteBuffer.allocate(4 + 4 + 4 + 4 + 1 + insns.length + 8).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0); // length, set below
        b.putInt(0); // CIE pointer, set by ehFrame
        b.putInt((int) pc); // pc_begin: made pcrel by ehFrame
        b.putInt((int) len);
        b.put((byte) 0); // augmentation data length
        b.put(insns);
        while (b.position() % 4 != 0) {
            b.put((byte) 0);
        }
        byte[] out = Arrays.copyOf(b.array(), b.position());
        ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putInt(0, out.length - 4);
        return out;
    }

    static byte[] ehFrame(byte[]... fdes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        // CIE: version 1, "zR", code align 1, data align -8, RA 16, aug len 1, enc 0x1b; def_cfa rsp+8, offset ra cfa-8
        byte[] cie = {0, 0, 0, 0, 0, 0, 0, 0, 1, 'z', 'R', 0, 1, 0x78, 0x10, 1, 0x1b, 0x0c, 0x07, 0x08, (byte) 0x90, 0x01,
            0, 0};
        ByteBuffer.wrap(cie).order(ByteOrder.LITTLE_ENDIAN).putInt(0, cie.length - 4);
        out.writeBytes(cie);
        for (byte[] f : fdes) {
            byte[] c = f.clone();
            ByteBuffer b = ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN);
            int at = out.size();
            b.putInt(4, at + 4);
            b.putInt(8, (int) (b.getInt(8) - (EH + at + 8)));
            out.writeBytes(c);
        }
        out.writeBytes(new byte[4]);
        return out.toByteArray();
    }

    /** ELF64 with a PT_LOAD at 0 (vaddr = offset) and sections: null, .eh_frame, .shstrtab. */
    static byte[] elf(byte[] eh) {
        byte[] names = "\0.eh_frame\0.shstrtab\0".getBytes();
        int ehOff = 0x100;
        int namesOff = ehOff + eh.length;
        int shOff = (namesOff + names.length + 7) & ~7;
        ByteBuffer b = ByteBuffer.allocate(shOff + 3 * 64).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0});
        b.position(16);
        b.putShort((short) 3).putShort((short) 62).putInt(1).putLong(0).putLong(64).putLong(shOff).putInt(0)
                .putShort((short) 64).putShort((short) 56).putShort((short) 1).putShort((short) 64).putShort((short) 3)
                .putShort((short) 2);
        // PT_LOAD R+X, offset 0 at EH - ehOff
        b.position(64);
        b.putInt(1).putInt(5).putLong(0).putLong(EH - ehOff).putLong(EH - ehOff).putLong(shOff).putLong(shOff)
                .putLong(0x1000);
        b.position(ehOff);
        b.put(eh);
        b.put(names);
        b.position(shOff + 64);
        b.putInt(1).putInt(1).putLong(2).putLong(EH).putLong(ehOff).putLong(eh.length).putInt(0).putInt(0).putLong(8)
                .putLong(0);
        b.putInt(11).putInt(3).putLong(0).putLong(0).putLong(namesOff).putLong(names.length).putInt(0).putInt(0)
                .putLong(1).putLong(0);
        return b.array();
    }
}
