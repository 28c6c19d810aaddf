package dev.jperf.format.unwind;

import dev.jperf.format.dwarf.DebugSections;
import dev.jperf.format.dwarf.DwarfException;
import dev.jperf.format.elf.ElfException;
import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.elf.ElfProgramHeader;
import dev.jperf.format.elf.ElfSection;
import java.util.Optional;

/**
 * One module's call frame information (DWARF 5 §6.4, the LSB's .eh_frame and .eh_frame_hdr): an
 * index of its FDEs by start address, built once (from .eh_frame_hdr's binary-search table when
 * there is one, else by walking .eh_frame; .debug_frame's FDEs after them, as libunwind looks
 * there second), and the rows of its tables computed on demand and cached by address. Addresses
 * are the module's own (ELF virtual addresses); {@link #vaddr} turns a file offset into one.
 *
 * <p>Bytes from a file are not trusted: a read past a section, a CIE that is not one, a program
 * that outruns its bounds makes that lookup find no row (never an exception), and a damaged
 * index stops where it is damaged.
 */
public final class Cfi {
    public static final int EH_FRAME = 0;
    public static final int DEBUG_FRAME = 1;

    static final int DW_EH_PE_OMIT = 0xff;
    private static final int CACHE = 1024;
    /** remember_state depth kept (libunwind's is smaller). */
    private static final int MAX_STATES = 16;

    /** A module without CFI (the unwinder falls back to frame pointers in it). */
    public static final Cfi EMPTY = new Cfi();

    private final byte[][] data = new byte[2][];
    /** Each section's virtual address (pcrel pointers are relative to it). */
    private final long[] base = new long[2];
    private long hdrAddr;
    private long textAddr;
    private long gotAddr;
    /** Executable PT_LOAD segments: file offset, size, vaddr. */
    private long[] segOffset = new long[0];
    private long[] segSize = new long[0];
    private long[] segVaddr = new long[0];
    /** The FDE index, sorted by start. */
    private long[] start = new long[0];
    private int[] fde = new int[0];
    private byte[] sec = new byte[0];
    private int count;

    // the row cache: direct-mapped by address (module-wide, one thread: the session's)
    private final long[] cacheKey = new long[CACHE];
    private final CfiRow[] cacheRow = new CfiRow[CACHE];
    // scratch of row computation
    private final CfiRow initial = new CfiRow();
    private final CfiRow[] states = new CfiRow[MAX_STATES];
    private final Cie cie = new Cie();
    // cursors of the row path (nested calls each have their own: no allocation per lookup)
    private final long[] fdeAt = new long[1];
    private final long[] cieAt = new long[1];
    private final long[] insnAt = new long[1];

    /** The parts of a CIE a row needs. */
    private static final class Cie {
        long codeAlign;
        long dataAlign;
        int raReg;
        int fdeEncoding;
        boolean augZ;
        boolean signal;
        int addressSize;
        int instructions;
        int end;
    }

    /** A read outside its section or a malformed entry: the lookup finds nothing. */
    static final class Bad extends RuntimeException {
        static final Bad INSTANCE = new Bad();

        private Bad() {
            super("bad CFI", null, false, false);
        }
    }

    private Cfi() {
        java.util.Arrays.fill(cacheKey, -1);
    }

    /** The CFI of {@code elf} (.eh_frame with .eh_frame_hdr, .debug_frame); {@link #EMPTY} when it has none. */
    public static Cfi of(ElfFile elf) {
        Cfi c = new Cfi();
        try {
            for (ElfProgramHeader p : elf.programHeaders()) {
                if (p.type() == ElfProgramHeader.PT_LOAD) {
                    c.segOffset = append(c.segOffset, p.offset());
                    c.segSize = append(c.segSize, p.filesz());
                    c.segVaddr = append(c.segVaddr, p.vaddr());
                }
            }
            Optional<ElfSection> text = elf.section(".text");
            c.textAddr = text.isPresent() ? text.get().addr() : 0;
            Optional<ElfSection> got = elf.section(".got");
            c.gotAddr = got.isPresent() ? got.get().addr() : 0;
            Optional<ElfSection> eh = elf.section(".eh_frame");
            if (eh.isPresent() && eh.get().type() != ElfSection.SHT_NOBITS) {
                c.data[EH_FRAME] = elf.sectionBytes(eh.get());
                c.base[EH_FRAME] = eh.get().addr();
                Optional<ElfSection> hdr = elf.section(".eh_frame_hdr");
                boolean indexed = false;
                if (hdr.isPresent() && hdr.get().type() != ElfSection.SHT_NOBITS) {
                    c.hdrAddr = hdr.get().addr();
                    indexed = c.indexHdr(elf.sectionBytes(hdr.get()));
                }
                if (!indexed) {
                    c.count = 0;
                    c.walk(EH_FRAME);
                }
            }
            Optional<byte[]> df = DebugSections.of(elf).section(".debug_frame");
            if (df.isPresent()) {
                c.data[DEBUG_FRAME] = df.get();
                c.walk(DEBUG_FRAME);
            }
        } catch (ElfException | DwarfException | Bad e) {
            // what was indexed before the damage stays usable
        }
        if (c.count == 0) {
            return c.segOffset.length == 0 ? EMPTY : c;
        }
        c.sort();
        return c;
    }

    private static long[] append(long[] a, long v) {
        long[] b = java.util.Arrays.copyOf(a, a.length + 1);
        b[a.length] = v;
        return b;
    }

    /** FDEs indexed. */
    public int fdeCount() {
        return count;
    }

    /** The module address of file offset {@code offset} (through its PT_LOAD), or the offset itself. */
    public long vaddr(long offset) {
        for (int i = 0; i < segOffset.length; i++) {
            if (offset >= segOffset[i] && offset - segOffset[i] < segSize[i]) {
                return offset - segOffset[i] + segVaddr[i];
            }
        }
        return offset;
    }

    /** The bytes of section {@link #EH_FRAME} or {@link #DEBUG_FRAME} (expressions are read there). */
    byte[] section(int which) {
        return data[which];
    }

    private void add(long pc, int offset, int section) {
        if (count == start.length) {
            int n = Math.max(16, count * 2);
            start = java.util.Arrays.copyOf(start, n);
            fde = java.util.Arrays.copyOf(fde, n);
            sec = java.util.Arrays.copyOf(sec, n);
        }
        start[count] = pc;
        fde[count] = offset;
        sec[count] = (byte) section;
        count++;
    }

    /** .eh_frame_hdr: version 1, encodings, eh_frame_ptr, fde_count, the sorted table. */
    private boolean indexHdr(byte[] h) {
        if (h.length < 4 || h[0] != 1) {
            return false;
        }
        int ptrEnc = h[1] & 0xff;
        int countEnc = h[2] & 0xff;
        int tableEnc = h[3] & 0xff;
        if (countEnc == DW_EH_PE_OMIT || tableEnc == DW_EH_PE_OMIT) {
            return false;
        }
        long[] at = {4};
        decode(h, at, ptrEnc, hdrAddr, 8);
        long n = decode(h, at, countEnc, hdrAddr, 8);
        if (n < 0 || n > h.length) {
            return false;
        }
        for (long i = 0; i < n; i++) {
            long pc = decode(h, at, tableEnc, hdrAddr, 8);
            long addr = decode(h, at, tableEnc, hdrAddr, 8);
            long off = addr - base[EH_FRAME];
            if (off < 0 || off >= data[EH_FRAME].length) {
                throw Bad.INSTANCE;
            }
            add(pc, (int) off, EH_FRAME);
        }
        return true;
    }

    /** Every FDE of a section, walked entry by entry. */
    private void walk(int which) {
        byte[] d = data[which];
        int p = 0;
        while (p + 4 <= d.length) {
            long len = u32(d, p);
            if (len == 0) {
                if (which == EH_FRAME) {
                    // .eh_frame's terminator
                    return;
                }
                p += 4;
                continue;
            }
            int hl = 4;
            boolean dwarf64 = len == 0xffffffffL;
            if (dwarf64) {
                len = u64(d, p + 4);
                hl = 12;
            }
            if (len < 0 || len > d.length - p - hl) {
                return;
            }
            int idAt = p + hl;
            long id = dwarf64 ? u64(d, idAt) : u32(d, idAt);
            boolean isCie = which == EH_FRAME ? id == 0 : (dwarf64 ? id == -1L : id == 0xffffffffL);
            if (!isCie) {
                try {
                    long pc = fdeRange(which, p, null);
                    add(pc, p, which);
                } catch (Bad e) {
                    // an FDE that cannot be read is left out of the index
                }
            }
            p = (int) (idAt + len);
        }
    }

    private void sort() {
        // shell sort on the three arrays (already sorted from a header table: one pass)
        for (int gap = count / 2; gap > 0; gap /= 2) {
            for (int i = gap; i < count; i++) {
                long s = start[i];
                int f = fde[i];
                byte k = sec[i];
                int j = i;
                while (j >= gap && Long.compareUnsigned(start[j - gap], s) > 0) {
                    start[j] = start[j - gap];
                    fde[j] = fde[j - gap];
                    sec[j] = sec[j - gap];
                    j -= gap;
                }
                start[j] = s;
                fde[j] = f;
                sec[j] = k;
            }
        }
    }

    /**
     * The row for module address {@code pc} into {@code out}: true when an FDE covers it and its
     * program could be run to there. Cached per address.
     */
    public boolean row(long pc, CfiRow out) {
        int slot = (int) ((pc ^ (pc >>> 10)) & (CACHE - 1));
        if (cacheKey[slot] == pc && cacheRow[slot] != null) {
            out.copyFrom(cacheRow[slot]);
            return true;
        }
        if (!compute(pc, out)) {
            return false;
        }
        CfiRow r = cacheRow[slot];
        if (r == null) {
            r = new CfiRow();
            cacheRow[slot] = r;
        }
        r.copyFrom(out);
        cacheKey[slot] = pc;
        return true;
    }

    private boolean compute(long pc, CfiRow out) {
        int lo = 0;
        int hi = count - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(start[mid], pc) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        // overlapping FDEs: the nearest starts below; a zero-length one may hide a covering one before it
        for (int i = found; i >= 0 && i > found - 4; i--) {
            try {
                if (run(sec[i], fde[i], pc, out)) {
                    return true;
                }
            } catch (Bad e) {
                return false;
            }
        }
        return false;
    }

    /** The FDE at {@code p}: its pc_begin; its range and CIE into {@code out}'s pcBegin/pcEnd when given. */
    private long fdeRange(int which, int p, CfiRow out) {
        byte[] d = data[which];
        long len = u32(d, p);
        int hl = 4;
        boolean dwarf64 = len == 0xffffffffL;
        if (dwarf64) {
            len = u64(d, p + 4);
            hl = 12;
        }
        if (len < 0 || len > d.length - p - hl) {
            throw Bad.INSTANCE;
        }
        int idAt = p + hl;
        int end = (int) (idAt + len);
        long id = dwarf64 ? u64(d, idAt) : u32(d, idAt);
        long cieOff = which == EH_FRAME ? idAt - id : id;
        if (cieOff < 0 || cieOff >= d.length || cieOff == p) {
            throw Bad.INSTANCE;
        }
        parseCie(which, (int) cieOff);
        long[] at = fdeAt;
        at[0] = idAt + (dwarf64 ? 8 : 4);
        long begin;
        long range;
        if (which == EH_FRAME) {
            begin = decode(d, at, cie.fdeEncoding, base[which], 8);
            range = decode(d, at, cie.fdeEncoding & 0x0f, 0, 8);
        } else {
            begin = readAddress(d, at, cie.addressSize);
            range = readAddress(d, at, cie.addressSize);
        }
        if (cie.augZ) {
            long augLen = uleb(d, at);
            if (augLen < 0 || augLen > end - at[0]) {
                throw Bad.INSTANCE;
            }
            at[0] += augLen;
        }
        if (at[0] > end) {
            throw Bad.INSTANCE;
        }
        if (out != null) {
            out.pcBegin = begin;
            out.pcEnd = begin + range;
            out.rowBegin = at[0];
            out.rowEnd = end;
        }
        return begin;
    }

    private long readAddress(byte[] d, long[] at, int size) {
        long v = switch (size) {
            case 4 -> u32(d, (int) at[0]);
            case 8 -> u64(d, (int) at[0]);
            default -> throw Bad.INSTANCE;
        };
        at[0] += size;
        return v;
    }

    private void parseCie(int which, int p) {
        byte[] d = data[which];
        long len = u32(d, p);
        int hl = 4;
        boolean dwarf64 = len == 0xffffffffL;
        if (dwarf64) {
            len = u64(d, p + 4);
            hl = 12;
        }
        if (len < 0 || len > d.length - p - hl) {
            throw Bad.INSTANCE;
        }
        int idAt = p + hl;
        int end = (int) (idAt + len);
        long id = dwarf64 ? u64(d, idAt) : u32(d, idAt);
        boolean isCie = which == EH_FRAME ? id == 0 : (dwarf64 ? id == -1L : id == 0xffffffffL);
        if (!isCie) {
            throw Bad.INSTANCE;
        }
        long[] at = cieAt;
        at[0] = idAt + (dwarf64 ? 8 : 4);
        int version = u8(d, (int) at[0]++);
        if (version != 1 && version != 3 && version != 4) {
            throw Bad.INSTANCE;
        }
        int augAt = (int) at[0];
        while (u8(d, (int) at[0]) != 0) {
            at[0]++;
        }
        int augEnd = (int) at[0]++;
        cie.addressSize = 8;
        if (version == 4) {
            cie.addressSize = u8(d, (int) at[0]++);
            at[0]++;
        }
        cie.codeAlign = uleb(d, at);
        cie.dataAlign = sleb(d, at);
        cie.raReg = version == 1 ? u8(d, (int) at[0]++) : (int) uleb(d, at);
        cie.fdeEncoding = 0;
        cie.signal = false;
        cie.augZ = augEnd > augAt && d[augAt] == 'z';
        if (cie.augZ) {
            long augLen = uleb(d, at);
            if (augLen < 0 || augLen > end - at[0]) {
                throw Bad.INSTANCE;
            }
            long augDataEnd = at[0] + augLen;
            for (int i = augAt + 1; i < augEnd; i++) {
                switch (d[i]) {
                    case 'R' -> cie.fdeEncoding = u8(d, (int) at[0]++);
                    case 'P' -> {
                        int enc = u8(d, (int) at[0]++);
                        decode(d, at, enc & 0x7f, base[which], 8);
                    }
                    case 'L' -> at[0]++;
                    case 'S' -> cie.signal = true;
                    default -> {
                        // an augmentation we do not know: 'z' says how long its data is
                        i = augEnd;
                    }
                }
            }
            for (int i = augAt + 1; i < augEnd; i++) {
                if (d[i] == 'S') {
                    cie.signal = true;
                }
            }
            at[0] = augDataEnd;
        } else if (augEnd > augAt) {
            // no 'z' and an augmentation: its data's length is unknown (gcc's old "eh" is gone)
            throw Bad.INSTANCE;
        }
        if (at[0] > end) {
            throw Bad.INSTANCE;
        }
        cie.instructions = (int) at[0];
        cie.end = end;
    }

    /** Runs the FDE at {@code p} for {@code pc}: false when it does not cover it. */
    private boolean run(int which, int p, long pc, CfiRow out) {
        fdeRange(which, p, out);
        if (Long.compareUnsigned(pc, out.pcBegin) < 0 || Long.compareUnsigned(pc, out.pcEnd) >= 0) {
            return false;
        }
        long pcBegin = out.pcBegin;
        long pcEnd = out.pcEnd;
        int fdeInstr = (int) out.rowBegin;
        int fdeEnd = (int) out.rowEnd;
        out.clear();
        out.section = which;
        out.raReg = cie.raReg;
        out.signalFrame = cie.signal;
        out.pcBegin = pcBegin;
        out.pcEnd = pcEnd;
        execute(which, cie.instructions, cie.end, -1L, pcBegin, out, null);
        initial.copyRules(out);
        execute(which, fdeInstr, fdeEnd, pc, pcBegin, out, initial);
        return true;
    }

    /**
     * Executes CFA instructions [from, to) until the location passes {@code pc} (the CIE's
     * initial ones: all of them). Sets out.rowBegin/rowEnd to the row's address range.
     */
    private void execute(int which, int from, int to, long pc, long loc, CfiRow out, CfiRow init) {
        byte[] d = data[which];
        long[] at = insnAt;
        at[0] = from;
        int depth = 0;
        out.rowBegin = loc;
        out.rowEnd = out.pcEnd;
        while (at[0] < to) {
            int op = u8(d, (int) at[0]++);
            int hi = op & 0xc0;
            int low = op & 0x3f;
            long next = -1;
            if (hi == 0x40) {
                next = loc + low * cie.codeAlign;
            } else if (hi == 0x80) {
                setRule(out, low, CfiRow.OFFSET, uleb(d, at) * cie.dataAlign, 0);
                continue;
            } else if (hi == 0xc0) {
                restore(out, init, low);
                continue;
            } else {
                switch (op) {
                    case 0x00 -> { }
                    case 0x01 -> next = which == EH_FRAME ? decode(d, at, cie.fdeEncoding, base[which], 8)
                            : readAddress(d, at, cie.addressSize);
                    case 0x02 -> {
                        next = loc + u8(d, (int) at[0]) * cie.codeAlign;
                        at[0] += 1;
                    }
                    case 0x03 -> {
                        next = loc + u16(d, (int) at[0]) * cie.codeAlign;
                        at[0] += 2;
                    }
                    case 0x04 -> {
                        next = loc + u32(d, (int) at[0]) * cie.codeAlign;
                        at[0] += 4;
                    }
                    case 0x05 -> {
                        int r = (int) uleb(d, at);
                        setRule(out, r, CfiRow.OFFSET, uleb(d, at) * cie.dataAlign, 0);
                    }
                    case 0x06 -> restore(out, init, (int) uleb(d, at));
                    case 0x07 -> setRule(out, (int) uleb(d, at), CfiRow.UNDEFINED, 0, 0);
                    case 0x08 -> setRule(out, (int) uleb(d, at), CfiRow.SAME_VALUE, 0, 0);
                    case 0x09 -> {
                        int r = (int) uleb(d, at);
                        setRule(out, r, CfiRow.REGISTER, uleb(d, at), 0);
                    }
                    case 0x0a -> {
                        if (depth == MAX_STATES) {
                            throw Bad.INSTANCE;
                        }
                        if (states[depth] == null) {
                            states[depth] = new CfiRow();
                        }
                        states[depth++].copyRules(out);
                    }
                    case 0x0b -> {
                        if (depth == 0) {
                            throw Bad.INSTANCE;
                        }
                        out.copyRules(states[--depth]);
                    }
                    case 0x0c -> {
                        out.cfaReg = (int) uleb(d, at);
                        out.cfaOffset = uleb(d, at);
                        out.cfaExpr = -1;
                    }
                    case 0x0d -> {
                        out.cfaReg = (int) uleb(d, at);
                        out.cfaExpr = -1;
                    }
                    case 0x0e -> out.cfaOffset = uleb(d, at);
                    case 0x0f -> {
                        long n = uleb(d, at);
                        checkBlock(d, at[0], n, to);
                        out.cfaExpr = (int) at[0];
                        out.cfaExprLength = (int) n;
                        at[0] += n;
                    }
                    case 0x10, 0x16 -> {
                        int r = (int) uleb(d, at);
                        long n = uleb(d, at);
                        checkBlock(d, at[0], n, to);
                        setRule(out, r, op == 0x10 ? CfiRow.EXPRESSION : CfiRow.VAL_EXPRESSION, at[0], (int) n);
                        at[0] += n;
                    }
                    case 0x11 -> {
                        int r = (int) uleb(d, at);
                        setRule(out, r, CfiRow.OFFSET, sleb(d, at) * cie.dataAlign, 0);
                    }
                    case 0x12 -> {
                        out.cfaReg = (int) uleb(d, at);
                        out.cfaOffset = sleb(d, at) * cie.dataAlign;
                        out.cfaExpr = -1;
                    }
                    case 0x13 -> out.cfaOffset = sleb(d, at) * cie.dataAlign;
                    case 0x14 -> {
                        int r = (int) uleb(d, at);
                        setRule(out, r, CfiRow.VAL_OFFSET, uleb(d, at) * cie.dataAlign, 0);
                    }
                    case 0x15 -> {
                        int r = (int) uleb(d, at);
                        setRule(out, r, CfiRow.VAL_OFFSET, sleb(d, at) * cie.dataAlign, 0);
                    }
                    case 0x2e -> uleb(d, at); // GNU_args_size: for landing pads, not for unwinding
                    case 0x2f -> {
                        int r = (int) uleb(d, at);
                        setRule(out, r, CfiRow.OFFSET, -uleb(d, at) * cie.dataAlign, 0);
                    }
                    default -> throw Bad.INSTANCE;
                }
            }
            if (next != -1) {
                if (Long.compareUnsigned(next, pc) > 0) {
                    out.rowEnd = next;
                    return;
                }
                loc = next;
                out.rowBegin = loc;
            }
        }
        if (at[0] > to) {
            throw Bad.INSTANCE;
        }
    }

    private static void checkBlock(byte[] d, long at, long n, int to) {
        if (n < 0 || n > to - at) {
            throw Bad.INSTANCE;
        }
    }

    private static void setRule(CfiRow out, int reg, byte rule, long value, int length) {
        if (reg >= 0 && reg < CfiRow.REGS) {
            out.rule[reg] = rule;
            out.value[reg] = value;
            out.exprLength[reg] = length;
        }
    }

    private static void restore(CfiRow out, CfiRow init, int reg) {
        if (reg < 0 || reg >= CfiRow.REGS) {
            return;
        }
        if (init == null) {
            out.rule[reg] = CfiRow.UNSPECIFIED;
        } else {
            out.rule[reg] = init.rule[reg];
            out.value[reg] = init.value[reg];
            out.exprLength[reg] = init.exprLength[reg];
        }
    }

    /** A DW_EH_PE-encoded pointer at {@code at[0]}; pcrel against {@code sectionAddr} + its offset. */
    private long decode(byte[] d, long[] at, int enc, long sectionAddr, int ptrSize) {
        if (enc == DW_EH_PE_OMIT) {
            return 0;
        }
        int p = (int) at[0];
        if ((enc & 0x70) == 0x50) {
            // DW_EH_PE_aligned: the pointer at the next multiple of its size
            p = (p + ptrSize - 1) & -ptrSize;
            at[0] = p;
            enc = 0;
        }
        long v;
        switch (enc & 0x0f) {
            case 0x00 -> {
                v = u64(d, p);
                at[0] += 8;
            }
            case 0x01 -> v = uleb(d, at);
            case 0x02 -> {
                v = u16(d, p);
                at[0] += 2;
            }
            case 0x03 -> {
                v = u32(d, p);
                at[0] += 4;
            }
            case 0x04, 0x0c -> {
                v = u64(d, p);
                at[0] += 8;
            }
            case 0x09 -> v = sleb(d, at);
            case 0x0a -> {
                v = (short) u16(d, p);
                at[0] += 2;
            }
            case 0x0b -> {
                v = (int) u32(d, p);
                at[0] += 4;
            }
            default -> throw Bad.INSTANCE;
        }
        if (v == 0 && (enc & 0x70) != 0x10) {
            return 0;
        }
        switch (enc & 0x70) {
            case 0x00 -> { }
            case 0x10 -> v += sectionAddr + p;
            case 0x20 -> v += textAddr;
            case 0x30 -> v += sectionAddr == hdrAddr ? hdrAddr : gotAddr;
            case 0x40 -> { } // funcrel: only LSDA pointers use it, skipped
            default -> throw Bad.INSTANCE;
        }
        return v;
    }

    static int u8(byte[] d, int p) {
        if (p < 0 || p >= d.length) {
            throw Bad.INSTANCE;
        }
        return d[p] & 0xff;
    }

    static int u16(byte[] d, int p) {
        if (p < 0 || p > d.length - 2) {
            throw Bad.INSTANCE;
        }
        return (d[p] & 0xff) | (d[p + 1] & 0xff) << 8;
    }

    static long u32(byte[] d, int p) {
        if (p < 0 || p > d.length - 4) {
            throw Bad.INSTANCE;
        }
        return (d[p] & 0xffL) | (d[p + 1] & 0xffL) << 8 | (d[p + 2] & 0xffL) << 16 | (d[p + 3] & 0xffL) << 24;
    }

    static long u64(byte[] d, int p) {
        if (p < 0 || p > d.length - 8) {
            throw Bad.INSTANCE;
        }
        return u32(d, p) | u32(d, p + 4) << 32;
    }

    static long uleb(byte[] d, long[] at) {
        long v = 0;
        int shift = 0;
        while (true) {
            int b = u8(d, (int) at[0]++);
            if (shift < 64) {
                v |= (long) (b & 0x7f) << shift;
            }
            shift += 7;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
    }

    static long sleb(byte[] d, long[] at) {
        long v = 0;
        int shift = 0;
        int b;
        do {
            b = u8(d, (int) at[0]++);
            if (shift < 64) {
                v |= (long) (b & 0x7f) << shift;
            }
            shift += 7;
        } while ((b & 0x80) != 0);
        if (shift < 64 && (b & 0x40) != 0) {
            v |= -1L << shift;
        }
        return v;
    }
}
