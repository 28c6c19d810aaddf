package dev.jperf.format.btf;

import dev.jperf.format.json.JsonWriter;
import java.nio.charset.StandardCharsets;

/**
 * A value printed through its BTF type as bpftool's btf_dumper prints it (the {@code formatted}
 * objects of {@code bpftool -j map dump}, and the whole of its plain dump of a BTF map): integers
 * by size and signedness, {@code char} arrays holding a C string as strings, bitfields and 128-bit
 * integers as hex, enums by name, pointers as numbers (JSON) or {@code %p} (plain text), structs
 * and unions as objects, DATASEC as {@code {"name": [vars]}}.
 *
 * <p>bpftool's control flow is kept: a type it cannot print yields its marker text
 * ({@code (unknown)}, {@code (fwd-kind-invalid)}, {@code (unsupported-kind}) or nothing, and the
 * enclosing struct or array stops there, so the output is bpftool's also in those corners. Reads
 * past the value's bytes, or types nested deeper than BTF allows, throw {@link BtfException}.
 */
public final class BtfDumper {
    /** libbpf's MAX_RESOLVE_DEPTH. */
    private static final int MAX_RESOLVE_DEPTH = 32;
    /** Nesting of structs and arrays followed; valid BTF cannot contain a type inside itself. */
    private static final int MAX_NESTING = 64;
    private static final int EINVAL = -22;
    private static final int E2BIG = -7;

    private final Btf btf;
    private final JsonWriter jw;
    private final boolean plainText;
    private byte[] data;
    private int nesting;
    private FuncPointers funcPointers;

    /** What a pointer to a function holds when it holds a program id (bpftool's prog_id_as_func_ptr). */
    public interface FuncPointers {
        /**
         * The text for a pointer of type FUNC_PROTO {@code protoId} holding {@code value} (at most
         * 32 bits), or null to print the value as a pointer.
         */
        String describe(int protoId, long value);
    }

    /** Function pointers printed through {@code f}, as struct_ops dumps print their programs. */
    public BtfDumper funcPointers(FuncPointers f) {
        this.funcPointers = f;
        return this;
    }

    /** {@code plainText}: bpftool's plain map dump (pointers as %p, chars and 128-bit values unquoted). */
    public BtfDumper(Btf btf, JsonWriter jw, boolean plainText) {
        this.btf = btf;
        this.jw = jw;
        this.plainText = plainText;
    }

    /**
     * btf_dumper_type: prints the value of type {@code typeId} at {@code data[offset]}. Returns 0,
     * or bpftool's negative errno when a type could not be printed (the output then stops there,
     * as bpftool's does).
     */
    public int dump(int typeId, byte[] data, int offset) {
        this.data = data;
        this.nesting = 0;
        return doType(typeId, 0, offset);
    }

    private BtfType typeOrNull(int id) {
        return id <= 0 || id > btf.lastId() ? null : btf.type(id);
    }

    private int doType(int id, int bitOffset, int off) {
        if (++nesting > MAX_NESTING) {
            throw new BtfException("BTF type " + id + " nests deeper than " + MAX_NESTING + " levels");
        }
        try {
            if (id == 0) {
                jw.raw("(unknown)");
                return 0;
            }
            BtfType t = btf.type(id);
            switch (t.kind()) {
                case INT:
                    return dumpInt((BtfType.Int) t, bitOffset, off);
                case STRUCT:
                case UNION:
                    return dumpStruct((BtfType.Composite) t, off);
                case ARRAY:
                    return dumpArray((BtfType.Array) t, off);
                case ENUM:
                    return dumpEnum((BtfType.Enum) t, off);
                case ENUM64:
                    return dumpEnum64((BtfType.Enum) t, off);
                case PTR:
                    long v = u64(off);
                    if (funcPointers != null && Long.compareUnsigned(v, 0xffffffffL) <= 0) {
                        int target = resolveType(((BtfType.Ref) t).type());
                        if (target > 0 && btf.kind(target) == BtfKind.FUNC_PROTO) {
                            String text = funcPointers.describe(target, v);
                            if (text != null) {
                                jw.string(text);
                                return 0;
                            }
                        }
                    }
                    jw.raw(plainText ? (v == 0 ? "(nil)" : "0x" + Long.toHexString(v)) : Long.toUnsignedString(v));
                    return 0;
                case FWD:
                    jw.raw("(fwd-kind-invalid)"); // a map's key or value cannot be a forward declaration
                    return EINVAL;
                case TYPEDEF:
                case VOLATILE:
                case CONST:
                case RESTRICT: {
                    int actual = resolveType(id);
                    return actual < 0 ? actual : doType(actual, bitOffset, off);
                }
                case VAR: {
                    jw.startObject();
                    jw.name(t.name());
                    int ret = doType(((BtfType.Var) t).type(), bitOffset, off);
                    jw.endObject();
                    return ret;
                }
                case DATASEC:
                    return dumpDatasec((BtfType.DataSec) t, off);
                default:
                    jw.raw("(unsupported-kind"); // sic: bpftool prints no closing parenthesis
                    return EINVAL;
            }
        } finally {
            nesting--;
        }
    }

    /** btf__resolve_type: through typedefs, modifiers and vars; -EINVAL for void or a chain too long. */
    private int resolveType(int id) {
        BtfType t = typeOrNull(id);
        int depth = 0;
        while (depth < MAX_RESOLVE_DEPTH && t != null && isModOrTypedefOrVar(t.kind())) {
            id = t instanceof BtfType.Var var ? var.type() : ((BtfType.Ref) t).type();
            t = typeOrNull(id);
            depth++;
        }
        return depth == MAX_RESOLVE_DEPTH || t == null ? EINVAL : id;
    }

    private static boolean isModOrTypedefOrVar(BtfKind k) {
        return k == BtfKind.TYPEDEF || k == BtfKind.VOLATILE || k == BtfKind.CONST || k == BtfKind.RESTRICT
                || k == BtfKind.TYPE_TAG || k == BtfKind.VAR;
    }

    /** btf__resolve_size: bytes of type {@code id}, or a negative errno. */
    public long resolveSize(int id) {
        long nelems = 1;
        BtfType t = typeOrNull(id);
        for (int i = 0; i < MAX_RESOLVE_DEPTH && t != null; i++) {
            switch (t.kind()) {
                case INT:
                    return nelems * ((BtfType.Int) t).size();
                case STRUCT:
                case UNION:
                    return nelems * ((BtfType.Composite) t).size();
                case ENUM:
                case ENUM64:
                    return nelems * ((BtfType.Enum) t).size();
                case DATASEC:
                    return nelems * ((BtfType.DataSec) t).size();
                case FLOAT:
                    return nelems * ((BtfType.Float) t).size();
                case PTR:
                    return nelems * 8;
                case TYPEDEF:
                case VOLATILE:
                case CONST:
                case RESTRICT:
                case TYPE_TAG:
                    t = typeOrNull(((BtfType.Ref) t).type());
                    break;
                case VAR:
                    t = typeOrNull(((BtfType.Var) t).type());
                    break;
                case DECL_TAG:
                    t = typeOrNull(((BtfType.DeclTag) t).type());
                    break;
                case ARRAY: {
                    BtfType.Array a = (BtfType.Array) t;
                    nelems *= Integer.toUnsignedLong(a.nelems());
                    if (nelems > 0xffffffffL) {
                        return E2BIG;
                    }
                    t = typeOrNull(a.elemType());
                    break;
                }
                default:
                    return EINVAL;
            }
        }
        return EINVAL;
    }

    private int dumpInt(BtfType.Int t, int bitOffset, int off) {
        int bits = t.bits();
        if (bitOffset != 0 || t.bitOffset() != 0 || (bits & 7) != 0) {
            intBits(t, bitOffset, off);
            return 0;
        }
        if (bits == 128) {
            int128(u64(off + 8), u64(off));
            return 0;
        }
        switch (t.encoding()) {
            case 0:
                switch (bits) {
                    case 64 -> jw.raw(Long.toUnsignedString(u64(off)));
                    case 32 -> jw.raw(Long.toString(Integer.toUnsignedLong(s32(off))));
                    case 16 -> jw.raw(Integer.toString(s16(off) & 0xffff));
                    case 8 -> jw.raw(Integer.toString(s8(off) & 0xff));
                    default -> intBits(t, bitOffset, off);
                }
                return 0;
            case BtfType.Int.SIGNED:
                switch (bits) {
                    case 64 -> jw.raw(Long.toString(u64(off)));
                    case 32 -> jw.raw(Integer.toString(s32(off)));
                    case 16 -> jw.raw(Integer.toString(s16(off)));
                    case 8 -> jw.raw(Integer.toString(s8(off)));
                    default -> intBits(t, bitOffset, off);
                }
                return 0;
            case BtfType.Int.CHAR: {
                int c = s8(off);
                if (c >= 0x20 && c < 0x7f) { // isprint in the C locale
                    jw.raw("\"" + (char) c + "\"");
                } else if (plainText) {
                    jw.raw("0x" + Integer.toHexString(c & 0xff));
                } else {
                    jw.raw(String.format("\"\\u00%02x\"", c & 0xff));
                }
                return 0;
            }
            case BtfType.Int.BOOL:
                jw.bool(s8(off) != 0);
                return 0;
            default:
                return EINVAL; // bpftool prints nothing here
        }
    }

    private void intBits(BtfType.Int t, int bitOffset, int off) {
        int total = bitOffset + t.bitOffset();
        bitfield(t.bits(), total & 7, off + (total >>> 3));
    }

    /** btf_dumper_bitfield: {@code nrBits} bits from bit {@code bitOffset} of {@code data[off]} (little-endian). */
    private void bitfield(int nrBits, int bitOffset, int off) {
        int bitsToCopy = bitOffset + nrBits;
        int bytesToCopy = (bitsToCopy + 7) >>> 3;
        if (bytesToCopy > 16) {
            throw new BtfException("bitfield of " + nrBits + " bits at bit " + bitOffset + " exceeds 128 bits");
        }
        need(off, bytesToCopy);
        long lower = 0;
        long upper = 0;
        for (int i = 0; i < bytesToCopy; i++) {
            long b = data[off + i] & 0xffL;
            if (i < 8) {
                lower |= b << (8 * i);
            } else {
                upper |= b << (8 * (i - 8));
            }
        }
        int left = 128 - bitsToCopy;
        int right = 128 - nrBits;
        // btf_int128_shift, with C's (x86's) shift counts taken modulo 64 as Java takes them
        if (left >= 64) {
            upper = lower << (left - 64);
            lower = 0;
        } else {
            upper = (upper << left) | (lower >>> (64 - left));
            lower = lower << left;
        }
        if (right >= 64) {
            lower = upper >>> (right - 64);
            upper = 0;
        } else {
            lower = (lower >>> right) | (upper << (64 - right));
            upper = upper >>> right;
        }
        int128(upper, lower);
    }

    private void int128(long upper, long lower) {
        String hex = upper == 0 ? "0x" + Long.toHexString(lower)
                : "0x" + Long.toHexString(upper) + String.format("%016x", lower);
        jw.raw(plainText ? hex : "\"" + hex + "\"");
    }

    private int dumpStruct(BtfType.Composite t, int off) {
        int ret = 0;
        jw.startObject();
        for (BtfType.Member m : t.members()) {
            jw.name(m.name());
            int dataOff = off + (m.bitOffset() >>> 3);
            if (m.bitfieldSize() != 0) {
                bitfield(m.bitfieldSize(), m.bitOffset() & 7, dataOff);
            } else {
                ret = doType(m.type(), m.bitOffset() & 7, dataOff);
                if (ret != 0) {
                    break;
                }
            }
        }
        jw.endObject();
        return ret;
    }

    private int dumpArray(BtfType.Array a, int off) {
        long nelems = Integer.toUnsignedLong(a.nelems());
        if (isStrArray(a, off)) {
            int end = off;
            while (data[end] != 0) {
                end++; // isStrArray found the NUL
            }
            jw.string(new String(data, off, end - off, StandardCharsets.ISO_8859_1));
            return 0;
        }
        long elemSize = resolveSize(a.elemType());
        if (elemSize < 0) {
            return (int) elemSize;
        }
        if (elemSize == 0 ? nelems > data.length : nelems * elemSize > data.length - (long) off) {
            throw new BtfException("BTF array type " + a.id() + " of " + nelems + " elements of " + elemSize
                    + " bytes runs past the value's " + data.length + " bytes");
        }
        int ret = 0;
        jw.startArray();
        for (long i = 0; i < nelems; i++) {
            ret = doType(a.elemType(), 0, (int) (off + i * elemSize));
            if (ret != 0) {
                break;
            }
        }
        jw.endArray();
        return ret;
    }

    /** is_str_array: a char array (modifiers skipped, typedefs not) holding printable text up to a NUL. */
    private boolean isStrArray(BtfType.Array a, int off) {
        if (a.nelems() == 0) {
            return false;
        }
        BtfType elem = typeOrNull(a.elemType());
        for (int i = 0; elem != null && i <= MAX_RESOLVE_DEPTH && isModifier(elem.kind()); i++) {
            elem = typeOrNull(((BtfType.Ref) elem).type());
        }
        if (!(elem instanceof BtfType.Int c) || c.size() != 1) {
            return false;
        }
        if (c.encoding() != BtfType.Int.CHAR && !c.name().equals("char")) {
            return false;
        }
        long n = Integer.toUnsignedLong(a.nelems());
        for (long i = 0; i < n; i++) {
            need(off + i, 1);
            byte b = data[(int) (off + i)];
            if (b == 0) {
                return true;
            }
            if (b <= 0x1f || b == 0x7f) { // signed char: bytes >= 0x80 are negative
                return false;
            }
        }
        return false;
    }

    private static boolean isModifier(BtfKind k) {
        return k == BtfKind.VOLATILE || k == BtfKind.CONST || k == BtfKind.RESTRICT || k == BtfKind.TYPE_TAG;
    }

    private int dumpEnum(BtfType.Enum t, int off) {
        long value;
        switch (t.size()) {
            case 8 -> value = u64(off);
            case 4 -> value = s32(off);
            case 2 -> value = s16(off);
            case 1 -> value = s8(off);
            default -> {
                return EINVAL;
            }
        }
        for (BtfType.EnumValue e : t.values()) {
            if (value == (int) e.value()) { // struct btf_enum's val is __s32
                jw.string(e.name());
                return 0;
            }
        }
        jw.integer(value);
        return 0;
    }

    private int dumpEnum64(BtfType.Enum t, int off) {
        long value = u64(off);
        for (BtfType.EnumValue e : t.values()) {
            if (value == e.value()) {
                jw.string(e.name());
                return 0;
            }
        }
        jw.integer(value);
        return 0;
    }

    private int dumpDatasec(BtfType.DataSec t, int off) {
        int ret = 0;
        jw.startObject();
        jw.name(t.name());
        jw.startArray();
        for (BtfType.VarSecInfo v : t.vars()) {
            ret = doType(v.type(), 0, off + v.offset());
            if (ret != 0) {
                break;
            }
        }
        jw.endArray();
        jw.endObject();
        return ret;
    }

    private void need(long off, int n) {
        if (off < 0 || off + n > data.length) {
            throw new BtfException("BTF-typed read of " + n + " bytes at offset " + off + " runs past the value's "
                    + data.length + " bytes");
        }
    }

    private long u64(int off) {
        need(off, 8);
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (data[off + i] & 0xffL);
        }
        return v;
    }

    private int s32(int off) {
        need(off, 4);
        return (data[off] & 0xff) | (data[off + 1] & 0xff) << 8 | (data[off + 2] & 0xff) << 16 | data[off + 3] << 24;
    }

    private int s16(int off) {
        need(off, 2);
        return (short) ((data[off] & 0xff) | data[off + 1] << 8);
    }

    private int s8(int off) {
        need(off, 1);
        return data[off];
    }
}
