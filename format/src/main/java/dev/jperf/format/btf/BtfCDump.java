package dev.jperf.format.btf;

import java.util.HashMap;

/**
 * BTF as compilable C, as libbpf's btf_dump.c writes it in the bpftool 7.1 Debian ships (Linux
 * 6.1.y's: libbpf 1.1's padding and packing rules, {@code (void)} for no parameters, no enum
 * {@code mode} attributes): types topologically ordered so that what a definition embeds comes first and what it only
 * points to is forward-declared, anonymous types inline, bitfields and explicit padding,
 * {@code __attribute__((packed))} where the layout says so, duplicate names suffixed
 * {@code ___N}, enum64 values with {@code LL}/{@code ULL}. {@link #header} is bpftool's
 * {@code btf dump ... format c}: the types between its vmlinux.h preamble and epilogue.
 *
 * <p>Names and control flow are btf_dump.c's so that corner cases come out the same; no
 * lambdas here, as {@code record -e prog.bpf.c} writes vmlinux.h with it on the record path.
 */
public final class BtfCDump {
    private static final String PREFIXES = "\t\t\t\t\t\t\t\t\t\t\t\t\t";
    private static final byte NOT = 0, BUSY = 1, DONE = 2; // NOT_ORDERED/ORDERING/ORDERED, NOT_EMITTED/EMITTING/EMITTED

    private final Btf btf;
    private final StringBuilder out;
    private final int ptrSz;
    private final int count;
    private final byte[] orderState;
    private final byte[] emitState;
    private final boolean[] fwdEmitted;
    private final boolean[] nameResolved;
    private final boolean[] referenced;
    private final String[] cachedNames;
    /** Each type's kind, info word and size/type word, read once: the dump asks for them many times per type. */
    private final BtfKind[] kinds;
    private final int[] infos;
    private final int[] sizeOrTypes;
    private final HashMap<String, Integer> typeNames = new HashMap<>();
    private final HashMap<String, Integer> identNames = new HashMap<>();
    private int[] emitQueue = new int[16];
    private int emitQueueCnt;
    private int[] declStack = new int[16];
    private int declStackCnt;
    /** The view emit_type_chain works on: a frame of declStack (its start and count). */
    private int chainCnt;

    /** btf_dump__new: writes into {@code out}. */
    public BtfCDump(Btf btf, StringBuilder out) {
        this.btf = btf;
        this.out = out;
        this.count = btf.lastId() + 1;
        int p = pointerSize(btf);
        this.ptrSz = p > 0 ? p : 8;
        orderState = new byte[count];
        emitState = new byte[count];
        fwdEmitted = new boolean[count];
        nameResolved = new boolean[count];
        referenced = new boolean[count];
        cachedNames = new String[count];
        kinds = new BtfKind[count];
        infos = new int[count];
        sizeOrTypes = new int[count];
        kinds[0] = BtfKind.UNKN;
        for (int id = 1; id < count; id++) {
            kinds[id] = btf.kind(id);
            infos[id] = btf.word(id, 1);
            sizeOrTypes[id] = btf.word(id, 2);
        }
        orderState[0] = DONE;
        emitState[0] = DONE;
        markReferenced();
    }

    /**
     * bpftool's dump_btf_c: the vmlinux.h preamble, every type ({@code roots} empty) or the
     * roots with what they need, and the epilogue.
     */
    public static void header(Btf btf, int[] roots, StringBuilder out) {
        BtfCDump d = new BtfCDump(btf, out);
        out.append(preamble());
        if (roots.length > 0) {
            for (int id : roots) {
                d.dumpType(id);
            }
        } else {
            for (int id = 1; id < d.count; id++) {
                d.dumpType(id);
            }
        }
        out.append(epilogue());
    }

    /** The preamble alone: what bpftool prints before a type fails. */
    public static String preamble() {
        return "#ifndef __VMLINUX_H__\n#define __VMLINUX_H__\n\n#ifndef BPF_NO_PRESERVE_ACCESS_INDEX\n"
                + "#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)\n#endif\n\n";
    }

    /** What bpftool prints after the types. */
    public static String epilogue() {
        return "#ifndef BPF_NO_PRESERVE_ACCESS_INDEX\n#pragma clang attribute pop\n#endif\n\n#endif /* __VMLINUX_H__ */\n";
    }

    /** libbpf's determine_ptr_size: the size of a {@code long} in the BTF (a base's first), or 0 when none is. */
    public static int pointerSize(Btf btf) {
        if (btf.base() != null) {
            int b = pointerSize(btf.base());
            if (b > 0) {
                return b;
            }
        }
        for (int id = 1; id <= btf.lastId(); id++) {
            if (btf.kind(id) != BtfKind.INT) {
                continue;
            }
            int size = btf.word(id, 2);
            if (size != 4 && size != 8) {
                continue;
            }
            switch (btf.name(id)) {
                case "long", "long int", "int long", "unsigned long", "long unsigned", "unsigned long int",
                        "unsigned int long", "long unsigned int", "long int unsigned", "int unsigned long",
                        "int long unsigned":
                    return size;
                default:
                    break;
            }
        }
        return -1;
    }

    /**
     * btf_dump__dump_type: type {@code id} and the types it needs not yet written; a type cycle
     * C cannot express throws (libbpf's -ELOOP), after what was written.
     */
    public void dumpType(int id) {
        if (id < 0 || id >= count) {
            throw new BtfException("BTF type id " + Integer.toUnsignedString(id) + " out of range (last id " + (count - 1) + ")");
        }
        emitQueueCnt = 0;
        orderType(id, false);
        for (int i = 0; i < emitQueueCnt; i++) {
            emitType(emitQueue[i], 0);
        }
    }

    // ---- the type's raw fields, as libbpf's btf.h accessors read them

    private BtfKind kind(int id) {
        return kinds[id];
    }

    private int nameOff(int id) {
        return id == 0 ? 0 : btf.word(id, 0);
    }

    private int vlen(int id) {
        return infos[id] & 0xffff;
    }

    private boolean kflag(int id) {
        return infos[id] < 0;
    }

    /** t->size or t->type. */
    private int sizeOrType(int id) {
        return sizeOrTypes[id];
    }

    private int memberType(int id, int i) {
        return btf.word(id, 3 + 3 * i + 1);
    }

    private int memberRawOffset(int id, int i) {
        return btf.word(id, 3 + 3 * i + 2);
    }

    private String memberName(int id, int i) {
        return btf.string(btf.word(id, 3 + 3 * i));
    }

    private int bitfieldSize(int id, int i) {
        return kflag(id) ? memberRawOffset(id, i) >>> 24 : 0;
    }

    private int bitOffset(int id, int i) {
        int off = memberRawOffset(id, i);
        return kflag(id) ? off & 0xffffff : off;
    }

    private int arrayType(int id) {
        return btf.word(id, 3);
    }

    private int arrayIndexType(int id) {
        return btf.word(id, 4);
    }

    private int arrayNelems(int id) {
        return btf.word(id, 5);
    }

    private int paramType(int id, int i) {
        return btf.word(id, 3 + 2 * i + 1);
    }

    private String paramName(int id, int i) {
        return btf.string(btf.word(id, 3 + 2 * i));
    }

    private static boolean isComposite(BtfKind k) {
        return k == BtfKind.STRUCT || k == BtfKind.UNION;
    }

    private static boolean isMod(BtfKind k) {
        return k == BtfKind.VOLATILE || k == BtfKind.CONST || k == BtfKind.RESTRICT || k == BtfKind.TYPE_TAG;
    }

    private void checkId(int id) {
        if (id < 0 || id >= count) {
            throw new BtfException("BTF type id " + Integer.toUnsignedString(id) + " out of range (last id " + (count - 1) + ")");
        }
    }

    // ---- btf_dump_mark_referenced

    private void markReferenced() {
        for (int i = 1; i < count; i++) {
            int vlen = vlen(i);
            switch (kind(i)) {
                case INT, ENUM, ENUM64, FWD, FLOAT:
                    break;
                case VOLATILE, CONST, RESTRICT, PTR, TYPEDEF, FUNC, VAR, DECL_TAG, TYPE_TAG:
                    ref(sizeOrType(i));
                    break;
                case ARRAY:
                    ref(arrayIndexType(i));
                    ref(arrayType(i));
                    break;
                case STRUCT, UNION:
                    for (int j = 0; j < vlen; j++) {
                        ref(memberType(i, j));
                    }
                    break;
                case FUNC_PROTO:
                    for (int j = 0; j < vlen; j++) {
                        ref(paramType(i, j));
                    }
                    break;
                case DATASEC:
                    for (int j = 0; j < vlen; j++) {
                        ref(btf.word(i, 3 + 3 * j));
                    }
                    break;
                default:
                    throw new BtfException("BTF type " + i + " has a kind the C dump cannot handle");
            }
        }
    }

    private void ref(int id) {
        checkId(id);
        referenced[id] = true;
    }

    private void addEmitQueue(int id) {
        if (emitQueueCnt == emitQueue.length) {
            emitQueue = java.util.Arrays.copyOf(emitQueue, emitQueue.length * 3 / 2);
        }
        emitQueue[emitQueueCnt++] = id;
    }

    // ---- btf_dump_order_type: 1 strong link, 0 weak

    private int orderType(int id, boolean throughPtr) {
        checkId(id);
        if (orderState[id] == DONE) {
            return 1;
        }
        BtfKind k = kind(id);
        if (orderState[id] == BUSY) {
            if (isComposite(k) && throughPtr && nameOff(id) != 0) {
                return 0;
            }
            throw new BtfException("unsatisfiable type cycle, id:[" + id + "]");
        }
        switch (k) {
            case INT, FLOAT:
                orderState[id] = DONE;
                return 0;
            case PTR: {
                int err = orderType(sizeOrType(id), true);
                orderState[id] = DONE;
                return err;
            }
            case ARRAY:
                return orderType(arrayType(id), false);
            case STRUCT, UNION: {
                if (throughPtr && nameOff(id) != 0) {
                    return 0;
                }
                orderState[id] = BUSY;
                int vlen = vlen(id);
                for (int i = 0; i < vlen; i++) {
                    orderType(memberType(id, i), false);
                }
                if (nameOff(id) != 0) {
                    addEmitQueue(id);
                }
                orderState[id] = DONE;
                return 1;
            }
            case ENUM, ENUM64, FWD:
                if (nameOff(id) != 0 || !referenced[id]) {
                    addEmitQueue(id);
                }
                orderState[id] = DONE;
                return 1;
            case TYPEDEF: {
                int strong = orderType(sizeOrType(id), throughPtr);
                if (throughPtr && strong == 0) {
                    return 0;
                }
                addEmitQueue(id);
                orderState[id] = DONE;
                return 1;
            }
            case VOLATILE, CONST, RESTRICT, TYPE_TAG:
                return orderType(sizeOrType(id), throughPtr);
            case FUNC_PROTO: {
                boolean strong = orderType(sizeOrType(id), throughPtr) > 0;
                int vlen = vlen(id);
                for (int i = 0; i < vlen; i++) {
                    if (orderType(paramType(id, i), throughPtr) > 0) {
                        strong = true;
                    }
                }
                return strong ? 1 : 0;
            }
            case FUNC, VAR, DATASEC, DECL_TAG:
                orderState[id] = DONE;
                return 0;
            default:
                throw new BtfException("BTF type " + id + " has a kind the C dump cannot order");
        }
    }

    private boolean isBlacklisted(int id) {
        return nameOff(id) != 0 && btf.name(id).equals("__builtin_va_list");
    }

    // ---- btf_dump_emit_type

    private void emitType(int id, int contId) {
        checkId(id);
        boolean topLevelDef = contId == 0;
        if (emitState[id] == DONE) {
            return;
        }
        BtfKind k = kind(id);
        if (emitState[id] == BUSY) {
            if (fwdEmitted[id]) {
                return;
            }
            switch (k) {
                case STRUCT, UNION:
                    if (id == contId) {
                        return;
                    }
                    if (nameOff(id) == 0) {
                        return; // libbpf warns of an anonymous struct/union loop and goes on
                    }
                    emitStructFwd(id);
                    out.append(";\n\n");
                    fwdEmitted[id] = true;
                    break;
                case TYPEDEF:
                    if (!isBlacklisted(id)) {
                        emitTypedefDef(id, 0);
                        out.append(";\n\n");
                    }
                    fwdEmitted[id] = true;
                    break;
                default:
                    break;
            }
            return;
        }
        switch (k) {
            case INT:
                emitMissingAliases(id);
                emitState[id] = DONE;
                break;
            case ENUM, ENUM64:
                if (topLevelDef) {
                    emitEnumDef(id, 0);
                    out.append(";\n\n");
                }
                emitState[id] = DONE;
                break;
            case PTR, VOLATILE, CONST, RESTRICT, TYPE_TAG:
                emitType(sizeOrType(id), contId);
                break;
            case ARRAY:
                emitType(arrayType(id), contId);
                break;
            case FWD:
                emitFwdDef(id);
                out.append(";\n\n");
                emitState[id] = DONE;
                break;
            case TYPEDEF:
                emitState[id] = BUSY;
                emitType(sizeOrType(id), id);
                if (!fwdEmitted[id] && !isBlacklisted(id)) {
                    emitTypedefDef(id, 0);
                    out.append(";\n\n");
                }
                emitState[id] = DONE;
                break;
            case STRUCT, UNION:
                emitState[id] = BUSY;
                if (topLevelDef || nameOff(id) == 0) {
                    int vlen = vlen(id);
                    int newContId = nameOff(id) == 0 ? contId : id;
                    for (int i = 0; i < vlen; i++) {
                        emitType(memberType(id, i), newContId);
                    }
                } else if (!fwdEmitted[id] && id != contId) {
                    emitStructFwd(id);
                    out.append(";\n\n");
                    fwdEmitted[id] = true;
                }
                if (topLevelDef) {
                    emitStructDef(id, 0);
                    out.append(";\n\n");
                    emitState[id] = DONE;
                } else {
                    emitState[id] = NOT;
                }
                break;
            case FUNC_PROTO: {
                emitType(sizeOrType(id), contId);
                int n = vlen(id);
                for (int i = 0; i < n; i++) {
                    emitType(paramType(id, i), contId);
                }
                break;
            }
            default:
                break;
        }
    }

    // ---- sizes and alignments: btf__align_of, btf__resolve_size

    /** btf__align_of: 0 for a kind without one (libbpf warns and returns 0). */
    private int alignOf(int id) {
        for (int depth = 0; depth < 64; depth++) {
            switch (id == 0 ? BtfKind.UNKN : kind(id)) {
                case INT, ENUM, ENUM64, FLOAT:
                    return (int) Math.min(ptrSz, Integer.toUnsignedLong(sizeOrType(id)));
                case PTR:
                    return ptrSz;
                case TYPEDEF, VOLATILE, CONST, RESTRICT, TYPE_TAG:
                    id = sizeOrType(id);
                    checkId(id);
                    continue;
                case ARRAY:
                    id = arrayType(id);
                    checkId(id);
                    continue;
                case STRUCT, UNION: {
                    int vlen = vlen(id);
                    int maxAlign = 1;
                    for (int i = 0; i < vlen; i++) {
                        int mt = memberType(id, i);
                        checkId(mt);
                        int align = alignOf(mt);
                        if (align <= 0) {
                            return align;
                        }
                        maxAlign = Math.max(maxAlign, align);
                        if (bitfieldSize(id, i) == 0 && Integer.remainderUnsigned(memberRawOffset(id, i), 8 * align) != 0) {
                            return 1;
                        }
                    }
                    if (Integer.remainderUnsigned(sizeOrType(id), maxAlign) != 0) {
                        return 1;
                    }
                    return maxAlign;
                }
                default:
                    return 0;
            }
        }
        throw new BtfException("BTF type chain too deep at id " + id);
    }

    /** btf__resolve_size: the size in bytes, or a negative errno. */
    private long resolveSize(int id) {
        long nelems = 1;
        long size = -1;
        for (int i = 0; i < 32 && id != 0; i++) {
            checkId(id);
            switch (kind(id)) {
                case INT, STRUCT, UNION, ENUM, ENUM64, DATASEC, FLOAT:
                    size = Integer.toUnsignedLong(sizeOrType(id));
                    i = 32;
                    continue;
                case PTR:
                    size = ptrSz;
                    i = 32;
                    continue;
                case TYPEDEF, VOLATILE, CONST, RESTRICT, VAR, DECL_TAG, TYPE_TAG:
                    id = sizeOrType(id);
                    break;
                case ARRAY: {
                    long n = Integer.toUnsignedLong(arrayNelems(id));
                    if (nelems != 0 && n > 0xffffffffL / nelems) {
                        return -7;
                    }
                    nelems *= n;
                    id = arrayType(id);
                    break;
                }
                default:
                    return -22;
            }
        }
        if (size < 0) {
            return -22;
        }
        if (nelems != 0 && size > 0xffffffffL / nelems) {
            return -7;
        }
        return nelems * size;
    }

    // ---- struct/union

    private boolean isStructPacked(int id) {
        int maxAlign = 1;
        int vlen = vlen(id);
        for (int i = 0; i < vlen; i++) {
            int align = alignOf(memberType(id, i));
            if (align != 0 && bitfieldSize(id, i) == 0 && Integer.remainderUnsigned(memberRawOffset(id, i), 8 * align) != 0) {
                return true;
            }
            maxAlign = Math.max(align, maxAlign);
        }
        return Integer.remainderUnsigned(sizeOrType(id), maxAlign) != 0;
    }

    private static final String[] PAD_NAMES = {"long", "int", "short", "char"};

    private static int roundup(int x, int y) {
        return (x + y - 1) / y * y;
    }

    private void pad(int lvl, String type, int bits) {
        out.append('\n').append(pfx(lvl)).append(type).append(": ").append(bits).append(';');
    }

    /** btf_dump_emit_bit_padding: the gap before {@code nextOff} filled so that the compiler lays it out the same. */
    private void emitBitPadding(int curOff, int nextOff, int nextAlign, boolean inBitfield, int lvl) {
        int[] padBitsOf = {ptrSz * 8, 32, 16, 8};
        if (curOff >= nextOff) {
            return;
        }
        int newOff = 0;
        int padBits = 0;
        String padType = null;
        for (int i = 0; i < 4; i++) {
            padBits = padBitsOf[i];
            padType = PAD_NAMES[i];
            newOff = roundup(curOff, padBits);
            if (newOff <= nextOff) {
                break;
            }
        }
        if (newOff > curOff && newOff <= nextOff) {
            if (inBitfield || (newOff == nextOff && roundup(curOff, nextAlign * 8) != newOff)
                    || (newOff != nextOff && nextOff - newOff <= newOff - curOff)) {
                pad(lvl, padType, inBitfield ? newOff - curOff : 0);
            }
            curOff = newOff;
        }
        while (curOff != nextOff) {
            int bits = Math.min(nextOff - curOff, padBits);
            if (bits == padBits) {
                pad(lvl, padType, padBits);
                curOff += bits;
                continue;
            }
            for (int i = 3; i >= 0; i--) {
                padType = PAD_NAMES[i];
                padBits = padBitsOf[i];
                if (padBits < bits) {
                    continue;
                }
                pad(lvl, padType, bits);
                curOff += bits;
                break;
            }
        }
    }

    private static final String[] PFX = new String[PREFIXES.length() + 1];

    static {
        for (int i = 0; i < PFX.length; i++) {
            PFX[i] = PREFIXES.substring(PREFIXES.length() - i);
        }
    }

    private static String pfx(int lvl) {
        return lvl >= PREFIXES.length() ? PREFIXES : PFX[lvl];
    }

    private void emitStructFwd(int id) {
        out.append(kind(id) == BtfKind.STRUCT ? "struct" : "union").append(nameOff(id) != 0 ? " " : "")
                .append(typeName(id));
    }

    private void emitStructDef(int id, int lvl) {
        boolean isStruct = kind(id) == BtfKind.STRUCT;
        int vlen = vlen(id);
        int structAlign = alignOf(id);
        boolean packed = isStruct && isStructPacked(id);
        out.append(isStruct ? "struct" : "union").append(nameOff(id) != 0 ? " " : "").append(typeName(id)).append(" {");
        int off = 0;
        boolean prevBitfield = false;
        for (int i = 0; i < vlen; i++) {
            String fname = memberName(id, i);
            int mSz = bitfieldSize(id, i);
            int mOff = bitOffset(id, i);
            int mt = memberType(id, i);
            checkId(mt);
            int mAlign = packed ? 1 : alignOf(mt);
            boolean inBitfield = prevBitfield && mSz != 0;
            emitBitPadding(off, mOff, mAlign, inBitfield, lvl + 1);
            out.append('\n').append(pfx(lvl + 1));
            emitTypeDecl(mt, fname, lvl + 1);
            if (mSz != 0) {
                out.append(": ").append(mSz);
                off = mOff + mSz;
                prevBitfield = true;
            } else {
                long sz = Math.max(0, resolveSize(mt));
                off = (int) (mOff + sz * 8);
                prevBitfield = false;
            }
            out.append(';');
        }
        if (isStruct) {
            emitBitPadding(off, sizeOrType(id) * 8, structAlign, false, lvl + 1);
        }
        if (vlen != 0 || sizeOrType(id) != 0) {
            out.append('\n').append(pfx(lvl)).append('}');
        } else {
            out.append('}');
        }
        if (packed) {
            out.append(" __attribute__((packed))");
        }
    }

    private static final String[][] MISSING_BASE_TYPES = {
        {"__Poly8_t", "unsigned char"}, {"__Poly16_t", "unsigned short"},
        {"__Poly64_t", "unsigned long long"}, {"__Poly128_t", "unsigned __int128"},
    };

    private void emitMissingAliases(int id) {
        String name = typeName(id);
        for (String[] m : MISSING_BASE_TYPES) {
            if (name.equals(m[0])) {
                out.append("typedef ").append(m[1]).append(' ').append(name).append(";\n\n");
                break;
            }
        }
    }

    // ---- enums

    private void emitEnumFwd(int id) {
        out.append("enum ").append(typeName(id));
    }

    private void emitEnumDef(int id, int lvl) {
        int vlen = vlen(id);
        out.append("enum").append(nameOff(id) != 0 ? " " : "").append(typeName(id));
        if (vlen == 0) {
            return;
        }
        out.append(" {");
        boolean signed = kflag(id);
        boolean is64 = kind(id) == BtfKind.ENUM64;
        for (int i = 0; i < vlen; i++) {
            String name;
            long val;
            if (is64) {
                name = btf.string(btf.word(id, 3 + 3 * i));
                val = Integer.toUnsignedLong(btf.word(id, 3 + 3 * i + 1)) | ((long) btf.word(id, 3 + 3 * i + 2) << 32);
            } else {
                name = btf.string(btf.word(id, 3 + 2 * i));
                int v = btf.word(id, 3 + 2 * i + 1);
                val = signed ? v : Integer.toUnsignedLong(v);
            }
            int dups = nameDups(identNames, name);
            out.append('\n').append(pfx(lvl + 1)).append(name);
            if (dups > 1) {
                out.append("___").append(dups);
            }
            out.append(" = ");
            if (is64) {
                out.append(signed ? Long.toString(val) : Long.toUnsignedString(val)).append(signed ? "LL" : "ULL");
            } else {
                out.append(val);
            }
            out.append(',');
        }
        out.append('\n').append(pfx(lvl)).append('}');
    }

    private void emitFwdDef(int id) {
        out.append(kflag(id) ? "union " : "struct ").append(typeName(id));
    }

    private void emitTypedefDef(int id, int lvl) {
        String name = identName(id);
        if (sizeOrType(id) == 0 && name.equals("__gnuc_va_list")) {
            out.append("typedef __builtin_va_list __gnuc_va_list");
            return;
        }
        out.append("typedef ");
        emitTypeDecl(sizeOrType(id), name, lvl);
    }

    // ---- declarations: btf_dump_emit_type_decl / emit_type_chain

    private void push(int id) {
        if (declStackCnt == declStack.length) {
            declStack = java.util.Arrays.copyOf(declStack, declStack.length * 3 / 2);
        }
        declStack[declStackCnt++] = id;
    }

    /**
     * btf_dump__emit_type_decl: the declaration of {@code fieldName} as type {@code id} (no
     * trailing ';'), anonymous types written out at {@code indentLevel}; {@code stripMods} leaves
     * const, volatile, restrict and type tags out (bpftool's skeleton structs).
     */
    public void emitTypeDecl(int id, String fieldName, int indentLevel, boolean stripMods) {
        checkId(id);
        this.stripMods = stripMods;
        try {
            emitTypeDecl(id, fieldName, indentLevel);
        } finally {
            this.stripMods = false;
        }
    }

    /** Set while {@link #emitTypeDecl(int, String, int, boolean)} strips modifiers. */
    private boolean stripMods;

    private void emitTypeDecl(int id, String fname, int lvl) {
        int stackStart = declStackCnt;
        for (int depth = 0;; depth++) {
            checkId(id);
            if (depth > 4096) {
                throw new BtfException("BTF type chain too deep at id " + id);
            }
            if (!(stripMods && id != 0 && isMod(kind(id)))) {
                push(id);
            }
            if (id == 0) {
                break;
            }
            BtfKind k = kind(id);
            if (k == BtfKind.PTR || k == BtfKind.VOLATILE || k == BtfKind.CONST || k == BtfKind.RESTRICT
                    || k == BtfKind.FUNC_PROTO || k == BtfKind.TYPE_TAG) {
                id = sizeOrType(id);
            } else if (k == BtfKind.ARRAY) {
                id = arrayType(id);
            } else {
                break; // terminal types, and the unexpected ones libbpf warns of
            }
        }
        int saved = chainCnt;
        chainCnt = declStackCnt - stackStart;
        emitTypeChain(stackStart, fname, lvl);
        chainCnt = saved;
        declStackCnt = stackStart;
    }

    private void emitMods(int base) {
        while (chainCnt > 0) {
            int id = declStack[base + chainCnt - 1];
            BtfKind k = id == 0 ? BtfKind.UNKN : kind(id);
            if (k == BtfKind.VOLATILE) {
                out.append("volatile ");
            } else if (k == BtfKind.CONST) {
                out.append("const ");
            } else if (k == BtfKind.RESTRICT) {
                out.append("restrict ");
            } else {
                return;
            }
            chainCnt--;
        }
    }

    private void dropMods(int base) {
        while (chainCnt > 0) {
            int id = declStack[base + chainCnt - 1];
            if (id == 0 || !isMod(kind(id))) {
                return;
            }
            chainCnt--;
        }
    }

    private void emitName(String name, boolean lastWasPtr) {
        if (!name.isEmpty() && !lastWasPtr) {
            out.append(' ');
        }
        out.append(name);
    }

    /** emit_type_chain over declStack[base, base + chainCnt), popping it. */
    private void emitTypeChain(int base, String fname, int lvl) {
        boolean lastWasPtr = true;
        while (chainCnt > 0) {
            int id = declStack[base + --chainCnt];
            if (id == 0) {
                emitMods(base);
                out.append("void");
                lastWasPtr = false;
                continue;
            }
            BtfKind k = kind(id);
            switch (k) {
                case INT, FLOAT:
                    emitMods(base);
                    out.append(btf.name(id));
                    break;
                case STRUCT, UNION:
                    emitMods(base);
                    if (nameOff(id) == 0) {
                        emitStructDef(id, lvl);
                    } else {
                        emitStructFwd(id);
                    }
                    break;
                case ENUM, ENUM64:
                    emitMods(base);
                    if (nameOff(id) == 0) {
                        emitEnumDef(id, lvl);
                    } else {
                        emitEnumFwd(id);
                    }
                    break;
                case FWD:
                    emitMods(base);
                    emitFwdDef(id);
                    break;
                case TYPEDEF:
                    emitMods(base);
                    out.append(identName(id));
                    break;
                case PTR:
                    out.append(lastWasPtr ? "*" : " *");
                    break;
                case VOLATILE:
                    out.append(" volatile");
                    break;
                case CONST:
                    out.append(" const");
                    break;
                case RESTRICT:
                    out.append(" restrict");
                    break;
                case TYPE_TAG:
                    emitMods(base);
                    out.append(" __attribute__((btf_type_tag(\"").append(btf.name(id)).append("\")))");
                    break;
                case ARRAY: {
                    int nelems = arrayNelems(id);
                    dropMods(base);
                    if (chainCnt == 0) {
                        emitName(fname, lastWasPtr);
                        out.append('[').append(Integer.toUnsignedString(nelems)).append(']');
                        return;
                    }
                    int nextId = declStack[base + chainCnt - 1];
                    boolean multidim = nextId != 0 && kind(nextId) == BtfKind.ARRAY;
                    if (!fname.isEmpty() && !lastWasPtr) {
                        out.append(' ');
                    }
                    if (!multidim) {
                        out.append('(');
                    }
                    emitTypeChain(base, fname, lvl);
                    if (!multidim) {
                        out.append(')');
                    }
                    out.append('[').append(Integer.toUnsignedString(nelems)).append(']');
                    return;
                }
                case FUNC_PROTO: {
                    int vlen = vlen(id);
                    dropMods(base);
                    if (chainCnt > 0) {
                        out.append(" (");
                        emitTypeChain(base, fname, lvl);
                        out.append(')');
                    } else {
                        emitName(fname, lastWasPtr);
                    }
                    out.append('(');
                    if (vlen == 0 || (vlen == 1 && paramType(id, 0) == 0)) {
                        out.append("void)");
                        return;
                    }
                    for (int i = 0; i < vlen; i++) {
                        if (i > 0) {
                            out.append(", ");
                        }
                        if (i == vlen - 1 && paramType(id, i) == 0) {
                            out.append("...");
                            break;
                        }
                        emitTypeDecl(paramType(id, i), paramName(id, i), lvl);
                    }
                    out.append(')');
                    return;
                }
                default:
                    return; // libbpf warns of an unexpected type in the chain
            }
            lastWasPtr = k == BtfKind.PTR;
        }
        emitName(fname, lastWasPtr);
    }

    // ---- names

    private static int nameDups(HashMap<String, Integer> names, String name) {
        Integer n = names.get(name);
        int dups = n == null ? 1 : n + 1;
        names.put(name, dups);
        return dups;
    }

    /** btf_dump_resolve_name: the name, suffixed {@code ___N} for the Nth type of that name; "" when anonymous. */
    private String resolveName(int id, HashMap<String, Integer> names) {
        if (nameResolved[id]) {
            return cachedNames[id];
        }
        if (nameOff(id) == 0) {
            return "";
        }
        String orig = btf.name(id);
        BtfKind k = kind(id);
        String name = orig;
        if (k != BtfKind.FWD && !(k == BtfKind.ENUM && vlen(id) == 0)) {
            int dups = nameDups(names, orig);
            if (dups > 1) {
                name = orig + "___" + dups;
                if (name.length() > 255) {
                    name = name.substring(0, 255); // snprintf into 256 bytes
                }
            }
        }
        cachedNames[id] = name;
        nameResolved[id] = true;
        return name;
    }

    private String typeName(int id) {
        return resolveName(id, typeNames);
    }

    private String identName(int id) {
        return resolveName(id, identNames);
    }
}
