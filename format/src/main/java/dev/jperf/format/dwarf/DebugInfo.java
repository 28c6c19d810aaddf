package dev.jperf.format.dwarf;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code .debug_info} read for what {@code addr2line -i -f} answers (DWARF 2 to 5): the units and
 * their address ranges, and per unit, read when an address first falls in it, its subprograms and
 * inlined subroutines with their ranges ({@code .debug_ranges}, {@code .debug_rnglists}), names
 * (through {@code DW_AT_abstract_origin} and {@code DW_AT_specification}, a linkage name before a
 * name, as binutils' dwarf2.c) and call sites. Every value read from the file is bounded by its
 * section before use; a damaged unit is one {@link DwarfException}, the other units stay usable.
 */
final class DebugInfo {
    // DW_TAG_*
    static final int DW_TAG_INLINED_SUBROUTINE = 0x1d;
    static final int DW_TAG_SUBPROGRAM = 0x2e;
    // DW_AT_*
    static final int DW_AT_NAME = 0x03;
    static final int DW_AT_STMT_LIST = 0x10;
    static final int DW_AT_LANGUAGE = 0x13;
    static final int DW_AT_COMP_DIR = 0x1b;
    static final int DW_AT_LOW_PC = 0x11;
    static final int DW_AT_HIGH_PC = 0x12;
    static final int DW_AT_ABSTRACT_ORIGIN = 0x31;
    static final int DW_AT_SPECIFICATION = 0x47;
    static final int DW_AT_RANGES = 0x55;
    static final int DW_AT_CALL_FILE = 0x58;
    static final int DW_AT_CALL_LINE = 0x59;
    static final int DW_AT_LINKAGE_NAME = 0x6e;
    static final int DW_AT_STR_OFFSETS_BASE = 0x72;
    static final int DW_AT_ADDR_BASE = 0x73;
    static final int DW_AT_RNGLISTS_BASE = 0x74;
    static final int DW_AT_MIPS_LINKAGE_NAME = 0x2007;
    // DW_FORM_*
    static final int DW_FORM_ADDR = 0x01;
    static final int DW_FORM_BLOCK2 = 0x03;
    static final int DW_FORM_BLOCK4 = 0x04;
    static final int DW_FORM_DATA2 = 0x05;
    static final int DW_FORM_DATA4 = 0x06;
    static final int DW_FORM_DATA8 = 0x07;
    static final int DW_FORM_STRING = 0x08;
    static final int DW_FORM_BLOCK = 0x09;
    static final int DW_FORM_BLOCK1 = 0x0a;
    static final int DW_FORM_DATA1 = 0x0b;
    static final int DW_FORM_FLAG = 0x0c;
    static final int DW_FORM_SDATA = 0x0d;
    static final int DW_FORM_STRP = 0x0e;
    static final int DW_FORM_UDATA = 0x0f;
    static final int DW_FORM_REF_ADDR = 0x10;
    static final int DW_FORM_REF1 = 0x11;
    static final int DW_FORM_REF2 = 0x12;
    static final int DW_FORM_REF4 = 0x13;
    static final int DW_FORM_REF8 = 0x14;
    static final int DW_FORM_REF_UDATA = 0x15;
    static final int DW_FORM_INDIRECT = 0x16;
    static final int DW_FORM_SEC_OFFSET = 0x17;
    static final int DW_FORM_EXPRLOC = 0x18;
    static final int DW_FORM_FLAG_PRESENT = 0x19;
    static final int DW_FORM_STRX = 0x1a;
    static final int DW_FORM_ADDRX = 0x1b;
    static final int DW_FORM_REF_SUP4 = 0x1c;
    static final int DW_FORM_STRP_SUP = 0x1d;
    static final int DW_FORM_DATA16 = 0x1e;
    static final int DW_FORM_LINE_STRP = 0x1f;
    static final int DW_FORM_REF_SIG8 = 0x20;
    static final int DW_FORM_IMPLICIT_CONST = 0x21;
    static final int DW_FORM_LOCLISTX = 0x22;
    static final int DW_FORM_RNGLISTX = 0x23;
    static final int DW_FORM_REF_SUP8 = 0x24;
    static final int DW_FORM_STRX1 = 0x25;
    static final int DW_FORM_STRX2 = 0x26;
    static final int DW_FORM_STRX3 = 0x27;
    static final int DW_FORM_STRX4 = 0x28;
    static final int DW_FORM_ADDRX1 = 0x29;
    static final int DW_FORM_ADDRX2 = 0x2a;
    static final int DW_FORM_ADDRX3 = 0x2b;
    static final int DW_FORM_ADDRX4 = 0x2c;
    static final int DW_FORM_GNU_ADDR_INDEX = 0x1f01;
    static final int DW_FORM_GNU_STR_INDEX = 0x1f02;
    static final int DW_FORM_GNU_REF_ALT = 0x1f20;
    static final int DW_FORM_GNU_STRP_ALT = 0x1f21;
    // DW_UT_*
    static final int DW_UT_TYPE = 2;
    static final int DW_UT_SKELETON = 4;
    static final int DW_UT_SPLIT_COMPILE = 5;
    static final int DW_UT_SPLIT_TYPE = 6;
    // DW_RLE_*
    static final int DW_RLE_END_OF_LIST = 0;
    static final int DW_RLE_BASE_ADDRESSX = 1;
    static final int DW_RLE_STARTX_ENDX = 2;
    static final int DW_RLE_STARTX_LENGTH = 3;
    static final int DW_RLE_OFFSET_PAIR = 4;
    static final int DW_RLE_BASE_ADDRESS = 5;
    static final int DW_RLE_START_END = 6;
    static final int DW_RLE_START_LENGTH = 7;
    /** Bound on the ranges of one DIE and on a chain of origins: far above what compilers write. */
    private static final int MAX_RANGES = 1 << 16;
    private static final int MAX_ORIGIN_CHAIN = 16;
    private static final int MAX_DEPTH = 1 << 12;

    // the class of the last attribute value read (readForm)
    private static final int V_NONE = 0;
    private static final int V_ADDR = 1;
    private static final int V_ADDRX = 2;
    private static final int V_CONST = 3;
    private static final int V_REF = 4;
    private static final int V_STR = 5;
    private static final int V_STRP = 6;
    private static final int V_LINE_STRP = 7;
    private static final int V_STRX = 8;
    private static final int V_SECOFF = 9;
    private static final int V_RNGLISTX = 10;

    private final byte[] info;
    private final byte[] abbrev;
    private final byte[] str;
    private final byte[] lineStr;
    private final byte[] strOffsets;
    private final byte[] addr;
    private final byte[] ranges;
    private final byte[] rnglists;
    private final ByteOrder order;
    private final List<Unit> units = new ArrayList<>();
    private final Map<Long, String> names = new HashMap<>();
    /** The DIEs of {@link #names} named by a linkage name. */
    private final java.util.Set<Long> linkage = new java.util.HashSet<>();

    private int valueClass;
    private long value;

    /** One unit of .debug_info: its header, the attributes of its first DIE, its abbreviations. */
    static final class Unit {
        final int offset;
        final int end;
        int version;
        int unitType;
        int addressSize;
        int offsetSize;
        long abbrevOffset;
        int dieStart;
        long lowPc;
        long stmtList = -1;
        String compDir;
        int language;
        long strOffsetsBase;
        long addrBase;
        long rnglistsBase;
        /** The unit's address ranges as pairs [lo, hi). */
        long[] ranges = new long[0];
        Map<Long, Abbrev> abbrevs;
        /** The unit's functions, read on first use; null until then. */
        Scopes scopes;
        String error;

        Unit(int offset, int end) {
            this.offset = offset;
            this.end = end;
        }
    }

    /** An abbreviation: tag, children flag, attributes with their forms (and implicit constants). */
    record Abbrev(int tag, boolean children, int[] attrs, int[] forms, long[] consts) {}

    /**
     * The subprograms and inlined subroutines of a unit, as parallel arrays: per function its
     * nesting depth, the function it is inlined into (-1 for none), the DIE its name is read from,
     * call file and line; per range piece [lo, hi) its function.
     */
    static final class Scopes {
        int count;
        int[] depth = new int[16];
        int[] caller = new int[16];
        long[] nameDie = new long[16];
        long[] callFile = new long[16];
        long[] callLine = new long[16];
        int pieces;
        long[] lo = new long[32];
        long[] hi = new long[32];
        int[] of = new int[32];

        int add(int d, int callerIndex, long die, long file, long line) {
            if (count == depth.length) {
                int n = 2 * count;
                depth = Arrays.copyOf(depth, n);
                caller = Arrays.copyOf(caller, n);
                nameDie = Arrays.copyOf(nameDie, n);
                callFile = Arrays.copyOf(callFile, n);
                callLine = Arrays.copyOf(callLine, n);
            }
            depth[count] = d;
            caller[count] = callerIndex;
            nameDie[count] = die;
            callFile[count] = file;
            callLine[count] = line;
            return count++;
        }

        void piece(long l, long h, int scope) {
            if (Long.compareUnsigned(l, h) >= 0) {
                return;
            }
            if (pieces == lo.length) {
                int n = 2 * pieces;
                lo = Arrays.copyOf(lo, n);
                hi = Arrays.copyOf(hi, n);
                of = Arrays.copyOf(of, n);
            }
            lo[pieces] = l;
            hi[pieces] = h;
            of[pieces++] = scope;
        }
    }

    DebugInfo(byte[] info, byte[] abbrev, byte[] str, byte[] lineStr, byte[] strOffsets, byte[] addr, byte[] ranges,
            byte[] rnglists, ByteOrder order, List<String> warnings) {
        this.info = info;
        this.abbrev = abbrev;
        this.str = str;
        this.lineStr = lineStr;
        this.strOffsets = strOffsets;
        this.addr = addr;
        this.ranges = ranges;
        this.rnglists = rnglists;
        this.order = order;
        readUnits(warnings);
    }

    List<Unit> units() {
        return units;
    }

    /** The unit headers and each unit's first DIE; the walk stops at the first damaged header. */
    private void readUnits(List<String> warnings) {
        DwarfInput in = new DwarfInput(info, order, ".debug_info");
        while (!in.atEnd()) {
            int start = in.position();
            Unit u;
            try {
                long length = in.u32();
                int offsetSize = 4;
                if (length == 0xffffffffL) {
                    length = in.u64();
                    offsetSize = 8;
                } else if (length >= 0xfffffff0L) {
                    throw in.error(start, "reserved unit length 0x" + Long.toHexString(length));
                }
                long end = in.position() + length;
                if (length < 0 || end > info.length) {
                    throw in.error(start, "a unit length of " + length + " runs past the section's end");
                }
                u = new Unit(start, (int) end);
                u.offsetSize = offsetSize;
            } catch (DwarfException e) {
                warnings.add(e.getMessage());
                return;
            }
            try {
                in.limit(u.end);
                header(in, u);
                u.dieStart = in.position();
                firstDie(u);
            } catch (DwarfException e) {
                u.error = e.getMessage();
                warnings.add(e.getMessage());
            }
            units.add(u);
            try {
                in.seek(Math.min(in.position(), u.end));
                in.limit(info.length);
                in.seek(u.end);
            } catch (DwarfException e) {
                return;
            }
        }
    }

    private static void header(DwarfInput in, Unit u) throws DwarfException {
        u.version = in.u16();
        if (u.version < 2 || u.version > 5) {
            throw in.error(u.offset, "unsupported unit version " + u.version);
        }
        if (u.version >= 5) {
            u.unitType = in.u8();
            u.addressSize = in.u8();
            u.abbrevOffset = in.unsigned(u.offsetSize);
            switch (u.unitType) {
                case DW_UT_SKELETON, DW_UT_SPLIT_COMPILE -> in.skip(8);
                case DW_UT_TYPE, DW_UT_SPLIT_TYPE -> in.skip(8 + u.offsetSize);
                default -> {
                    // DW_UT_compile, DW_UT_partial: nothing more
                }
            }
        } else {
            u.abbrevOffset = in.unsigned(u.offsetSize);
            u.addressSize = in.u8();
        }
        if (u.addressSize != 4 && u.addressSize != 8) {
            throw in.error(u.offset, "address size " + u.addressSize);
        }
    }

    /** The unit's abbreviation table (read once): code to abbreviation. */
    private Map<Long, Abbrev> abbrevs(Unit u) throws DwarfException {
        if (u.abbrevs != null) {
            return u.abbrevs;
        }
        if (abbrev == null) {
            throw new DwarfException(".debug_abbrev: missing");
        }
        DwarfInput in = new DwarfInput(abbrev, order, ".debug_abbrev");
        in.seek(u.abbrevOffset);
        Map<Long, Abbrev> out = new HashMap<>();
        while (true) {
            long code = in.uleb();
            if (code == 0) {
                break;
            }
            int tag = (int) in.uleb();
            boolean children = in.u8() != 0;
            int[] attrs = new int[8];
            int[] forms = new int[8];
            long[] consts = new long[8];
            int n = 0;
            while (true) {
                long at = in.uleb();
                long form = in.uleb();
                if (at == 0 && form == 0) {
                    break;
                }
                long c = form == DW_FORM_IMPLICIT_CONST ? in.sleb() : 0;
                if (n == attrs.length) {
                    attrs = Arrays.copyOf(attrs, 2 * n);
                    forms = Arrays.copyOf(forms, 2 * n);
                    consts = Arrays.copyOf(consts, 2 * n);
                }
                attrs[n] = (int) Math.min(at, Integer.MAX_VALUE);
                forms[n] = (int) Math.min(form, Integer.MAX_VALUE);
                consts[n++] = c;
            }
            out.put(code, new Abbrev(tag, children, Arrays.copyOf(attrs, n), Arrays.copyOf(forms, n), Arrays.copyOf(consts, n)));
        }
        u.abbrevs = out;
        return out;
    }

    private Abbrev abbrevAt(DwarfInput in, Unit u, long code) throws DwarfException {
        Abbrev a = abbrevs(u).get(code);
        if (a == null) {
            throw in.error(in.position(), "no abbreviation " + code);
        }
        return a;
    }

    /** The unit's first DIE: bases, line table, ranges. */
    private void firstDie(Unit u) throws DwarfException {
        DwarfInput in = new DwarfInput(info, order, ".debug_info");
        in.seek(u.dieStart);
        in.limit(u.end);
        long code = in.uleb();
        if (code == 0) {
            return;
        }
        Abbrev a = abbrevAt(in, u, code);
        // the bases come first: other attributes of this DIE are read through them
        int p = in.position();
        for (int i = 0; i < a.attrs.length; i++) {
            readForm(in, u, a.forms[i], a.consts[i], 0);
            switch (a.attrs[i]) {
                case DW_AT_STR_OFFSETS_BASE -> u.strOffsetsBase = value;
                case DW_AT_ADDR_BASE -> u.addrBase = value;
                case DW_AT_RNGLISTS_BASE -> u.rnglistsBase = value;
                default -> {
                }
            }
        }
        in.seek(p);
        long low = 0;
        long high = 0;
        boolean hasLow = false;
        int highClass = V_NONE;
        long rangesValue = -1;
        int rangesClass = V_NONE;
        for (int i = 0; i < a.attrs.length; i++) {
            readForm(in, u, a.forms[i], a.consts[i], 0);
            switch (a.attrs[i]) {
                case DW_AT_LOW_PC -> {
                    low = address(u);
                    hasLow = true;
                }
                case DW_AT_HIGH_PC -> {
                    highClass = valueClass;
                    high = valueClass == V_CONST ? value : address(u);
                }
                case DW_AT_RANGES -> {
                    rangesClass = valueClass;
                    rangesValue = value;
                }
                case DW_AT_STMT_LIST -> u.stmtList = value;
                case DW_AT_COMP_DIR -> u.compDir = string(u);
                case DW_AT_LANGUAGE -> u.language = (int) value;
                default -> {
                }
            }
        }
        u.lowPc = low;
        Scopes s = new Scopes();
        if (rangesClass != V_NONE) {
            ranges(u, rangesClass, rangesValue, s, 0);
        } else if (hasLow && highClass != V_NONE) {
            s.piece(low, highClass == V_CONST ? low + high : high, 0);
        }
        long[] r = new long[2 * s.pieces];
        for (int i = 0; i < s.pieces; i++) {
            r[2 * i] = s.lo[i];
            r[2 * i + 1] = s.hi[i];
        }
        u.ranges = r;
    }

    /** The functions of a unit, read once. */
    Scopes scopes(Unit u) throws DwarfException {
        if (u.scopes != null) {
            return u.scopes;
        }
        if (u.error != null) {
            throw new DwarfException(u.error);
        }
        Scopes s = new Scopes();
        DwarfInput in = new DwarfInput(info, order, ".debug_info");
        in.seek(u.dieStart);
        in.limit(u.end);
        // per nesting level: the innermost function at or above it (-1 for none)
        int[] funcAt = new int[64];
        int depth = 0;
        funcAt[0] = -1;
        while (!in.atEnd()) {
            long die = in.position();
            long code = in.uleb();
            if (code == 0) {
                if (depth > 0) {
                    depth--;
                }
                continue;
            }
            Abbrev a = abbrevAt(in, u, code);
            boolean function = a.tag == DW_TAG_SUBPROGRAM || a.tag == DW_TAG_INLINED_SUBROUTINE;
            long low = 0;
            long high = 0;
            boolean hasLow = false;
            int highClass = V_NONE;
            int rangesClass = V_NONE;
            long rangesValue = 0;
            long callFile = 0;
            long callLine = 0;
            for (int i = 0; i < a.attrs.length; i++) {
                readForm(in, u, a.forms[i], a.consts[i], 0);
                if (!function) {
                    continue;
                }
                switch (a.attrs[i]) {
                    case DW_AT_LOW_PC -> {
                        low = address(u);
                        hasLow = true;
                    }
                    case DW_AT_HIGH_PC -> {
                        highClass = valueClass;
                        high = valueClass == V_CONST ? value : address(u);
                    }
                    case DW_AT_RANGES -> {
                        rangesClass = valueClass;
                        rangesValue = value;
                    }
                    case DW_AT_CALL_FILE -> callFile = value;
                    case DW_AT_CALL_LINE -> callLine = value;
                    default -> {
                    }
                }
            }
            int fn = funcAt[depth];
            if (function && (rangesClass != V_NONE || hasLow && highClass != V_NONE)) {
                // binutils links only an inlined subroutine to the function around it
                int caller = a.tag == DW_TAG_INLINED_SUBROUTINE ? funcAt[depth] : -1;
                fn = s.add(depth, caller, die, callFile, callLine);
                if (rangesClass != V_NONE) {
                    ranges(u, rangesClass, rangesValue, s, fn);
                } else {
                    s.piece(low, highClass == V_CONST ? low + high : high, fn);
                }
            }
            if (a.children) {
                if (++depth >= MAX_DEPTH) {
                    throw in.error(die, "DIEs nested deeper than " + MAX_DEPTH);
                }
                if (depth == funcAt.length) {
                    funcAt = Arrays.copyOf(funcAt, 2 * depth);
                }
                funcAt[depth] = fn;
            }
        }
        u.scopes = s;
        return s;
    }

    /** The address the last value names (DW_FORM_addr, or an index into .debug_addr). */
    private long address(Unit u) throws DwarfException {
        if (valueClass == V_ADDRX) {
            return indexedAddress(u, value);
        }
        return value;
    }

    private long indexedAddress(Unit u, long index) throws DwarfException {
        if (addr == null) {
            throw new DwarfException(".debug_addr: missing");
        }
        if (index < 0 || index > (addr.length - u.addrBase) / u.addressSize) {
            throw new DwarfException(".debug_addr: index " + index + " out of the section");
        }
        DwarfInput in = new DwarfInput(addr, order, ".debug_addr");
        in.seek(u.addrBase + index * u.addressSize);
        return in.unsigned(u.addressSize);
    }

    /** A range list's pieces added to {@code s} for function {@code fn}. */
    private void ranges(Unit u, int cls, long v, Scopes s, int fn) throws DwarfException {
        if (u.version >= 5) {
            if (rnglists == null) {
                throw new DwarfException(".debug_rnglists: missing");
            }
            DwarfInput in = new DwarfInput(rnglists, order, ".debug_rnglists");
            long off = v;
            if (cls == V_RNGLISTX) {
                in.seek(u.rnglistsBase + v * u.offsetSize);
                off = u.rnglistsBase + in.unsigned(u.offsetSize);
            }
            in.seek(off);
            long base = u.lowPc;
            for (int n = 0; n < MAX_RANGES; n++) {
                int kind = in.u8();
                switch (kind) {
                    case DW_RLE_END_OF_LIST -> {
                        return;
                    }
                    case DW_RLE_BASE_ADDRESSX -> base = indexedAddress(u, in.uleb());
                    case DW_RLE_STARTX_ENDX -> {
                        long a = indexedAddress(u, in.uleb());
                        s.piece(a, indexedAddress(u, in.uleb()), fn);
                    }
                    case DW_RLE_STARTX_LENGTH -> {
                        long a = indexedAddress(u, in.uleb());
                        s.piece(a, a + in.uleb(), fn);
                    }
                    case DW_RLE_OFFSET_PAIR -> {
                        long a = in.uleb();
                        s.piece(base + a, base + in.uleb(), fn);
                    }
                    case DW_RLE_BASE_ADDRESS -> base = in.unsigned(u.addressSize);
                    case DW_RLE_START_END -> {
                        long a = in.unsigned(u.addressSize);
                        s.piece(a, in.unsigned(u.addressSize), fn);
                    }
                    case DW_RLE_START_LENGTH -> {
                        long a = in.unsigned(u.addressSize);
                        s.piece(a, a + in.uleb(), fn);
                    }
                    default -> throw in.error(in.position() - 1, "unknown range list entry " + kind);
                }
            }
            throw in.error(off, "more than " + MAX_RANGES + " ranges");
        }
        if (ranges == null) {
            throw new DwarfException(".debug_ranges: missing");
        }
        DwarfInput in = new DwarfInput(ranges, order, ".debug_ranges");
        in.seek(v);
        long base = u.lowPc;
        long all = u.addressSize == 8 ? -1L : 0xffffffffL;
        for (int n = 0; n < MAX_RANGES; n++) {
            long a = in.unsigned(u.addressSize);
            long b = in.unsigned(u.addressSize);
            if (a == 0 && b == 0) {
                return;
            }
            if (a == all) {
                base = b;
            } else {
                s.piece(base + a, base + b, fn);
            }
        }
        throw in.error(v, "more than " + MAX_RANGES + " ranges");
    }

    /**
     * Reads one attribute value into {@link #valueClass} and {@link #value}: constants, addresses,
     * references as offsets into .debug_info, strings as where they are (resolved by {@link #string}).
     */
    private void readForm(DwarfInput in, Unit u, int form, long implicit, int indirections) throws DwarfException {
        switch (form) {
            case DW_FORM_ADDR -> set(V_ADDR, in.unsigned(u.addressSize));
            case DW_FORM_BLOCK2 -> skip(in, in.u16());
            case DW_FORM_BLOCK4 -> skip(in, in.u32());
            case DW_FORM_DATA2 -> set(V_CONST, in.u16());
            case DW_FORM_DATA4 -> set(V_CONST, in.u32());
            case DW_FORM_DATA8 -> set(V_CONST, in.u64());
            case DW_FORM_STRING -> {
                set(V_STR, in.position());
                in.cstring();
            }
            case DW_FORM_BLOCK, DW_FORM_EXPRLOC -> skip(in, in.uleb());
            case DW_FORM_BLOCK1 -> skip(in, in.u8());
            case DW_FORM_DATA1, DW_FORM_FLAG -> set(V_CONST, in.u8());
            case DW_FORM_SDATA -> set(V_CONST, in.sleb());
            case DW_FORM_STRP -> set(V_STRP, in.unsigned(u.offsetSize));
            case DW_FORM_UDATA -> set(V_CONST, in.uleb());
            case DW_FORM_REF_ADDR -> set(V_REF, in.unsigned(u.version <= 2 ? u.addressSize : u.offsetSize));
            case DW_FORM_REF1 -> set(V_REF, u.offset + in.u8());
            case DW_FORM_REF2 -> set(V_REF, u.offset + in.u16());
            case DW_FORM_REF4 -> set(V_REF, u.offset + in.u32());
            case DW_FORM_REF8 -> set(V_REF, u.offset + in.u64());
            case DW_FORM_REF_UDATA -> set(V_REF, u.offset + in.uleb());
            case DW_FORM_INDIRECT -> {
                if (indirections > 2) {
                    throw in.error(in.position(), "DW_FORM_indirect of DW_FORM_indirect");
                }
                readForm(in, u, (int) Math.min(in.uleb(), Integer.MAX_VALUE), 0, indirections + 1);
            }
            case DW_FORM_SEC_OFFSET -> set(V_SECOFF, in.unsigned(u.offsetSize));
            case DW_FORM_FLAG_PRESENT -> set(V_CONST, 1);
            case DW_FORM_STRX, DW_FORM_GNU_STR_INDEX -> set(V_STRX, in.uleb());
            case DW_FORM_ADDRX, DW_FORM_GNU_ADDR_INDEX -> set(V_ADDRX, in.uleb());
            case DW_FORM_REF_SUP4 -> skip(in, 4);
            case DW_FORM_REF_SUP8, DW_FORM_REF_SIG8 -> skip(in, 8);
            case DW_FORM_STRP_SUP, DW_FORM_GNU_REF_ALT, DW_FORM_GNU_STRP_ALT -> skip(in, u.offsetSize);
            case DW_FORM_DATA16 -> skip(in, 16);
            case DW_FORM_LINE_STRP -> set(V_LINE_STRP, in.unsigned(u.offsetSize));
            case DW_FORM_IMPLICIT_CONST -> set(V_CONST, implicit);
            case DW_FORM_LOCLISTX -> set(V_CONST, in.uleb());
            case DW_FORM_RNGLISTX -> set(V_RNGLISTX, in.uleb());
            case DW_FORM_STRX1 -> set(V_STRX, in.u8());
            case DW_FORM_STRX2 -> set(V_STRX, in.u16());
            case DW_FORM_STRX3 -> set(V_STRX, in.u16() | (long) in.u8() << 16);
            case DW_FORM_STRX4 -> set(V_STRX, in.u32());
            case DW_FORM_ADDRX1 -> set(V_ADDRX, in.u8());
            case DW_FORM_ADDRX2 -> set(V_ADDRX, in.u16());
            case DW_FORM_ADDRX3 -> set(V_ADDRX, in.u16() | (long) in.u8() << 16);
            case DW_FORM_ADDRX4 -> set(V_ADDRX, in.u32());
            default -> throw in.error(in.position(), "unknown form 0x" + Integer.toHexString(form));
        }
    }

    private void set(int cls, long v) {
        valueClass = cls;
        value = v;
    }

    private void skip(DwarfInput in, long n) throws DwarfException {
        in.skip(n);
        valueClass = V_NONE;
    }

    /** The string the last value names, or null when it is not a string. */
    private String string(Unit u) throws DwarfException {
        return switch (valueClass) {
            case V_STR -> DwarfInput.stringAt(info, value, ".debug_info");
            case V_STRP -> DwarfInput.stringAt(str, value, ".debug_str");
            case V_LINE_STRP -> DwarfInput.stringAt(lineStr, value, ".debug_line_str");
            case V_STRX -> {
                if (strOffsets == null || value < 0 || value > (strOffsets.length - u.strOffsetsBase) / u.offsetSize) {
                    throw new DwarfException(".debug_str_offsets: index " + value + " out of the section");
                }
                DwarfInput in = new DwarfInput(strOffsets, order, ".debug_str_offsets");
                in.seek(u.strOffsetsBase + value * u.offsetSize);
                yield DwarfInput.stringAt(str, in.unsigned(u.offsetSize), ".debug_str");
            }
            default -> null;
        };
    }

    /** The unit holding .debug_info offset {@code off}, or null. */
    private Unit unitAt(long off) {
        int lo = 0;
        int hi = units.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            Unit u = units.get(mid);
            if (off < u.offset) {
                hi = mid - 1;
            } else if (off >= u.end) {
                lo = mid + 1;
            } else {
                return u;
            }
        }
        return null;
    }

    /**
     * The name of the function whose DIE is at {@code die}: as binutils names it, a linkage name
     * before a name, found on the DIE or along its abstract origin and specification; null for none.
     */
    String name(long die) throws DwarfException {
        return name(die, false);
    }

    /**
     * binutils' DW_LANG_* whose names are not mangled (its non_mangled): their DW_AT_name is as
     * good as a linkage name. Assembly (DW_LANG_Mips_Assembler, which gas writes) is among them:
     * addr2line names libc's assembly functions by the subprograms gas writes for them.
     */
    private static boolean plainNames(int language) {
        return switch (language) {
            case 0x1, 0x2, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xc, 0xe, 0xf, 0x10, 0x12, 0x1d, 0x22, 0x23, 0x2c, 0x8001 -> true;
            default -> false;
        };
    }

    /**
     * {@link #name(long)}, or null when {@code linkageOnly} and the name is neither a linkage name
     * nor a name of a language without mangling: binutils then names the function by the ELF symbol.
     */
    String name(long die, boolean linkageOnly) throws DwarfException {
        if (linkageOnly) {
            String n = name(die, false);
            Unit u = unitAt(die);
            return n != null && (u != null && plainNames(u.language) || linkage.contains(die)) ? n : null;
        }
        String cached = names.get(die);
        if (cached != null || names.containsKey(die)) {
            return cached;
        }
        String linkage = null;
        String plain = null;
        long at = die;
        for (int hop = 0; hop < MAX_ORIGIN_CHAIN && at >= 0; hop++) {
            Unit u = unitAt(at);
            if (u == null || u.error != null) {
                break;
            }
            DwarfInput in = new DwarfInput(info, order, ".debug_info");
            in.seek(at);
            in.limit(u.end);
            long code = in.uleb();
            if (code == 0) {
                break;
            }
            Abbrev a = abbrevAt(in, u, code);
            long next = -1;
            for (int i = 0; i < a.attrs.length; i++) {
                readForm(in, u, a.forms[i], a.consts[i], 0);
                switch (a.attrs[i]) {
                    case DW_AT_NAME -> {
                        if (plain == null) {
                            plain = string(u);
                        }
                    }
                    case DW_AT_LINKAGE_NAME, DW_AT_MIPS_LINKAGE_NAME -> {
                        if (linkage == null) {
                            linkage = string(u);
                        }
                    }
                    case DW_AT_ABSTRACT_ORIGIN, DW_AT_SPECIFICATION -> {
                        if (valueClass == V_REF) {
                            next = value;
                        }
                    }
                    default -> {
                    }
                }
            }
            if (linkage != null) {
                break;
            }
            at = next;
        }
        String n = linkage != null ? linkage : plain;
        names.put(die, n);
        if (linkage != null) {
            this.linkage.add(die);
        }
        return n;
    }
}
