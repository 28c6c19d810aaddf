package dev.jperf.format.btf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A parsed BTF blob (uapi linux/btf.h): the header, the type section and the string section.
 *
 * <p>Parsing walks every type once and records where it starts (validating kinds and lengths), so
 * opening the 5 MB vmlinux BTF costs one linear pass; {@link #type(int)} decodes a type on demand.
 * Split BTF (kernel modules: ids and string offsets continue after a base such as vmlinux) is
 * supported with {@link #parse(byte[], Btf)}.
 */
public final class Btf {
    public static final int BTF_MAGIC = 0xeb9f;
    /** sizeof(struct btf_header) of version 1. */
    public static final int HEADER_SIZE = 24;
    private static final int TYPE_HEADER_SIZE = 12;

    private final ByteBuffer buf;
    private final Btf base;
    private final int firstId;
    private final int typeStart;
    private final int strStart;
    private final int strLen;
    private final int baseStrLen;
    private final int[] offsets;
    private final int typeLen;

    private Btf(ByteBuffer buf, Btf base, int typeStart, int typeLen, int strStart, int strLen, int[] offsets) {
        this.typeLen = typeLen;
        this.buf = buf;
        this.base = base;
        this.firstId = base == null ? 1 : base.lastId() + 1;
        this.typeStart = typeStart;
        this.strStart = strStart;
        this.strLen = strLen;
        this.baseStrLen = base == null ? 0 : base.totalStrLen();
        this.offsets = offsets;
    }

    /** Parses a standalone BTF blob (a program's BTF, vmlinux). */
    public static Btf parse(byte[] raw) {
        return parse(raw, null);
    }

    /** Reads and parses a BTF file, e.g. {@code /sys/kernel/btf/vmlinux}. */
    public static Btf load(Path path) throws IOException {
        return parse(Files.readAllBytes(path));
    }

    /** Parses split BTF whose type ids and string offsets continue those of {@code base} (null: standalone). */
    public static Btf parse(byte[] raw, Btf base) {
        if (raw.length < HEADER_SIZE) {
            throw new BtfException("BTF too short: " + raw.length + " bytes, header needs " + HEADER_SIZE);
        }
        ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
        int magic = Short.toUnsignedInt(b.getShort(0));
        if (magic == Integer.reverseBytes(BTF_MAGIC) >>> 16) {
            b.order(ByteOrder.BIG_ENDIAN);
        } else if (magic != BTF_MAGIC) {
            throw new BtfException(String.format("bad BTF magic 0x%04x (expected 0x%04x)", magic, BTF_MAGIC));
        }
        int version = b.get(2) & 0xff;
        if (version != 1) {
            throw new BtfException("unsupported BTF version " + version);
        }
        long hdrLen = Integer.toUnsignedLong(b.getInt(4));
        if (hdrLen < HEADER_SIZE || hdrLen > raw.length) {
            throw new BtfException("bad BTF hdr_len " + hdrLen + " (blob " + raw.length + " bytes)");
        }
        long typeOff = hdrLen + Integer.toUnsignedLong(b.getInt(8));
        long typeLen = Integer.toUnsignedLong(b.getInt(12));
        long strOff = hdrLen + Integer.toUnsignedLong(b.getInt(16));
        long strLen = Integer.toUnsignedLong(b.getInt(20));
        if (typeOff + typeLen > raw.length || strOff + strLen > raw.length) {
            throw new BtfException("BTF sections out of bounds: types " + typeOff + "+" + typeLen
                    + ", strings " + strOff + "+" + strLen + " in " + raw.length + " bytes");
        }
        if (strLen > 0 && raw[(int) (strOff + strLen - 1)] != 0) {
            throw new BtfException("BTF string section does not end with NUL");
        }
        int[] offsets = walk(b, (int) typeOff, (int) typeLen);
        return new Btf(b, base, (int) typeOff, (int) typeLen, (int) strOff, (int) strLen, offsets);
    }

    private static int[] walk(ByteBuffer b, int start, int len) {
        // a type is at least 12 bytes, which bounds the array size by the section length
        int[] offs = new int[Math.max(16, Math.min(len / TYPE_HEADER_SIZE, 1 << 16))];
        int n = 0;
        int pos = start;
        int end = start + len;
        while (pos < end) {
            if (end - pos < TYPE_HEADER_SIZE) {
                throw new BtfException("BTF type section ends inside a type header at byte " + (pos - start));
            }
            int info = b.getInt(pos + 4);
            int kindNo = (info >>> 24) & 0x1f;
            BtfKind kind = BtfKind.of(kindNo);
            if (kind == null || kind == BtfKind.UNKN) {
                throw new BtfException("unknown BTF kind " + kindNo + " at type " + (n + 1));
            }
            long next = (long) pos + TYPE_HEADER_SIZE + trailing(kind, info & 0xffff);
            if (next > end) {
                throw new BtfException("BTF type " + (n + 1) + " (" + kind + ") runs past the type section");
            }
            if (n == offs.length) {
                offs = Arrays.copyOf(offs, n * 2);
            }
            offs[n++] = pos;
            pos = (int) next;
        }
        return Arrays.copyOf(offs, n);
    }

    private static long trailing(BtfKind kind, int vlen) {
        return switch (kind) {
            case INT, VAR, DECL_TAG -> 4;
            case ARRAY -> 12;
            case STRUCT, UNION, DATASEC, ENUM64 -> 12L * vlen;
            case ENUM, FUNC_PROTO -> 8L * vlen;
            default -> 0;
        };
    }

    /**
     * Where type {@code id}'s struct btf_type starts in the blob parsed (an own type, not the
     * base's): for callers that patch a copy of the blob in place.
     */
    public int typeOffset(int id) {
        return offsetOf(id);
    }

    /** Type {@code id}'s name_off (an own type): where its name starts in {@link #stringSectionOffset()}'s section. */
    public int nameOffset(int id) {
        return buf.getInt(offsetOf(id));
    }

    /** Offset of the type section in the blob parsed. */
    public int typeSectionOffset() {
        return typeStart;
    }

    public int typeSectionLength() {
        return typeLen;
    }

    /** Offset of the string section in the blob parsed. */
    public int stringSectionOffset() {
        return strStart;
    }

    public int stringSectionLength() {
        return strLen;
    }

    /** The id of this blob's first type: 1, or the base's last id + 1 for split BTF. */
    public int firstId() {
        return firstId;
    }

    /** The highest valid type id (types of the base included). */
    public int lastId() {
        return firstId + offsets.length - 1;
    }

    /** Number of types in this blob (without the base). */
    public int typeCount() {
        return offsets.length;
    }

    public Btf base() {
        return base;
    }

    public ByteOrder order() {
        return buf.order();
    }

    private int totalStrLen() {
        return baseStrLen + strLen;
    }

    /** The NUL-terminated string at {@code off} of the (base + own) string section. */
    public String string(int off) {
        if (off < 0) {
            throw new BtfException("bad BTF string offset " + Integer.toUnsignedString(off));
        }
        if (off < baseStrLen) {
            return base.string(off);
        }
        int rel = off - baseStrLen;
        if (rel >= strLen) {
            throw new BtfException("BTF string offset " + off + " past the string section (" + totalStrLen() + " bytes)");
        }
        int s = strStart + rel;
        int e = s;
        while (buf.get(e) != 0) {
            e++; // the section ends with NUL (checked at parse)
        }
        if (buf.hasArray()) {
            return new String(buf.array(), buf.arrayOffset() + s, e - s, StandardCharsets.UTF_8);
        }
        byte[] tmp = new byte[e - s];
        buf.get(s, tmp);
        return new String(tmp, StandardCharsets.UTF_8);
    }

    private int offsetOf(int id) {
        if (id < firstId) {
            throw new BtfException("BTF type id " + id + " not in this BTF");
        }
        int i = id - firstId;
        if (i >= offsets.length) {
            throw new BtfException("BTF type id " + id + " out of range (last id " + lastId() + ")");
        }
        return offsets[i];
    }

    /** The blob holding type {@code id}: this one, or a base's. */
    private Btf owner(int id) {
        Btf b = this;
        while (id < b.firstId) {
            if (b.base == null) {
                throw new BtfException("BTF type id " + id + " out of range");
            }
            b = b.base;
        }
        return b;
    }

    /**
     * Word {@code i} of type {@code id}'s struct btf_type and what follows it (0 name_off, 1 info,
     * 2 size/type, 3... the kind's trailing data), as libbpf's accessors read it: for the C
     * dumper and the raw dump, which walk every type many times without decoding it whole.
     */
    int word(int id, int i) {
        Btf b = owner(id);
        return b.buf.getInt(b.offsetOf(id) + 4 * i);
    }

    /** The kind of type {@code id} (id 0, void, is {@link BtfKind#UNKN}). */
    public BtfKind kind(int id) {
        if (id == 0) {
            return BtfKind.UNKN;
        }
        if (id < firstId) {
            if (base == null) {
                throw new BtfException("BTF type id " + id + " out of range");
            }
            return base.kind(id);
        }
        return BtfKind.of((buf.getInt(offsetOf(id) + 4) >>> 24) & 0x1f);
    }

    /** The name of type {@code id} ("" for anonymous types and void). */
    public String name(int id) {
        if (id == 0) {
            return "";
        }
        if (id < firstId) {
            if (base == null) {
                throw new BtfException("BTF type id " + id + " out of range");
            }
            return base.name(id);
        }
        return string(buf.getInt(offsetOf(id)));
    }

    /** The name of a FUNC type (what func_info[i].type_id points at), empty if id is not a FUNC. */
    public Optional<String> funcName(int id) {
        if (id <= 0 || id > lastId() || kind(id) != BtfKind.FUNC) {
            return Optional.empty();
        }
        return Optional.of(name(id));
    }

    /** The first type with this kind and name, or -1. */
    public int findByName(String name, BtfKind kind) {
        for (int id = firstId; id <= lastId(); id++) {
            if (kind(id) == kind && name(id).equals(name)) {
                return id;
            }
        }
        return base == null ? -1 : base.findByName(name, kind);
    }

    /** Deepest type chain followed when naming a type: BTF from a file may contain cycles. */
    private static final int MAX_DEPTH = 32;

    /**
     * A C-like name of type {@code id}: {@code void}, {@code int}, {@code struct task_struct *},
     * {@code const char *}, {@code __u64[4]}, {@code int (*)(void *)}. Anonymous composites print
     * as {@code struct {...}}.
     */
    public String typeName(int id) {
        return typeName(id, 0);
    }

    private String typeName(int id, int depth) {
        if (id == 0) {
            return "void";
        }
        if (depth > MAX_DEPTH || id < 0 || id > lastId()) {
            return "?";
        }
        BtfType t = type(id);
        String n = t.name();
        return switch (t.kind()) {
            case INT, FLOAT, TYPEDEF, FUNC, VAR, DATASEC -> n;
            case STRUCT -> "struct " + (n.isEmpty() ? "{...}" : n);
            case UNION -> "union " + (n.isEmpty() ? "{...}" : n);
            case ENUM, ENUM64 -> "enum " + (n.isEmpty() ? "{...}" : n);
            case FWD -> (((BtfType.Fwd) t).union() ? "union " : "struct ") + n;
            case PTR -> {
                int target = ((BtfType.Ref) t).type();
                if (target > 0 && target <= lastId() && kind(target) == BtfKind.FUNC_PROTO) {
                    BtfType.FuncProto p = (BtfType.FuncProto) type(target);
                    yield typeName(p.returnType(), depth + 1) + " (*)(" + params(p, false, depth + 1) + ")";
                }
                String inner = typeName(target, depth + 1);
                yield inner.endsWith("*") ? inner + "*" : inner + " *";
            }
            case CONST -> "const " + typeName(((BtfType.Ref) t).type(), depth + 1);
            case VOLATILE -> "volatile " + typeName(((BtfType.Ref) t).type(), depth + 1);
            case RESTRICT -> typeName(((BtfType.Ref) t).type(), depth + 1) + " restrict";
            case TYPE_TAG, DECL_TAG -> typeName(((t instanceof BtfType.Ref r) ? r.type() : ((BtfType.DeclTag) t).type()), depth + 1);
            case ARRAY -> {
                BtfType.Array a = (BtfType.Array) t;
                yield typeName(a.elemType(), depth + 1) + "[" + Integer.toUnsignedString(a.nelems()) + "]";
            }
            case FUNC_PROTO -> {
                BtfType.FuncProto p = (BtfType.FuncProto) t;
                yield typeName(p.returnType(), depth + 1) + " (" + params(p, false, depth + 1) + ")";
            }
            default -> "?";
        };
    }

    private String params(BtfType.FuncProto p, boolean names, int depth) {
        if (p.params().isEmpty()) {
            return "void";
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < p.params().size(); i++) {
            BtfType.Param prm = p.params().get(i);
            if (i > 0) {
                sb.append(", ");
            }
            if (prm.type() == 0 && i == p.params().size() - 1) {
                sb.append("..."); // a last parameter of type void marks varargs
                continue;
            }
            String type = typeName(prm.type(), depth);
            sb.append(type);
            if (names && !prm.name().isEmpty()) {
                sb.append(type.endsWith("*") ? "" : " ").append(prm.name());
            }
        }
        return sb.toString();
    }

    /**
     * The C declaration of a FUNC: {@code static __u64 mix_a(__u64 x)} (static for linkage 0);
     * empty when {@code funcId} is not a FUNC with a FUNC_PROTO.
     */
    public Optional<String> funcSignature(int funcId) {
        if (funcId <= 0 || funcId > lastId() || kind(funcId) != BtfKind.FUNC) {
            return Optional.empty();
        }
        BtfType.Func f = (BtfType.Func) type(funcId);
        if (f.type() <= 0 || f.type() > lastId() || kind(f.type()) != BtfKind.FUNC_PROTO) {
            return Optional.empty();
        }
        BtfType.FuncProto p = (BtfType.FuncProto) type(f.type());
        String ret = typeName(p.returnType());
        return Optional.of((f.linkage() == 0 ? "static " : "") + ret + (ret.endsWith("*") ? "" : " ") + f.name()
                + "(" + params(p, true, 1) + ")");
    }

    /** Decodes type {@code id} with its trailing data. */
    public BtfType type(int id) {
        if (id < firstId) {
            if (base == null) {
                throw new BtfException("BTF type id " + id + " out of range (first id " + firstId + ")");
            }
            return base.type(id);
        }
        int p = offsetOf(id);
        String name = string(buf.getInt(p));
        int info = buf.getInt(p + 4);
        int vlen = info & 0xffff;
        boolean kflag = info < 0;
        BtfKind kind = BtfKind.of((info >>> 24) & 0x1f);
        int sizeOrType = buf.getInt(p + 8);
        int t = p + TYPE_HEADER_SIZE;
        switch (kind) {
            case INT: {
                int v = buf.getInt(t);
                return new BtfType.Int(id, name, sizeOrType, (v >>> 24) & 0x0f, (v >>> 16) & 0xff, v & 0xff);
            }
            case PTR: case TYPEDEF: case VOLATILE: case CONST: case RESTRICT: case TYPE_TAG:
                return new BtfType.Ref(id, name, kind, sizeOrType);
            case ARRAY:
                return new BtfType.Array(id, name, buf.getInt(t), buf.getInt(t + 4), buf.getInt(t + 8));
            case STRUCT: case UNION: {
                List<BtfType.Member> ms = new ArrayList<>(vlen);
                for (int i = 0; i < vlen; i++, t += 12) {
                    int off = buf.getInt(t + 8);
                    ms.add(kflag
                            ? new BtfType.Member(string(buf.getInt(t)), buf.getInt(t + 4), off & 0xffffff, off >>> 24)
                            : new BtfType.Member(string(buf.getInt(t)), buf.getInt(t + 4), off, 0));
                }
                return new BtfType.Composite(id, name, kind, sizeOrType, ms);
            }
            case ENUM: {
                List<BtfType.EnumValue> vs = new ArrayList<>(vlen);
                for (int i = 0; i < vlen; i++, t += 8) {
                    int v = buf.getInt(t + 4);
                    vs.add(new BtfType.EnumValue(string(buf.getInt(t)), kflag ? v : Integer.toUnsignedLong(v)));
                }
                return new BtfType.Enum(id, name, kind, sizeOrType, kflag, vs);
            }
            case ENUM64: {
                List<BtfType.EnumValue> vs = new ArrayList<>(vlen);
                for (int i = 0; i < vlen; i++, t += 12) {
                    long v = Integer.toUnsignedLong(buf.getInt(t + 4)) | ((long) buf.getInt(t + 8) << 32);
                    vs.add(new BtfType.EnumValue(string(buf.getInt(t)), v));
                }
                return new BtfType.Enum(id, name, kind, sizeOrType, kflag, vs);
            }
            case FWD:
                return new BtfType.Fwd(id, name, kflag);
            case FUNC:
                return new BtfType.Func(id, name, sizeOrType, vlen);
            case FUNC_PROTO: {
                List<BtfType.Param> ps = new ArrayList<>(vlen);
                for (int i = 0; i < vlen; i++, t += 8) {
                    ps.add(new BtfType.Param(string(buf.getInt(t)), buf.getInt(t + 4)));
                }
                return new BtfType.FuncProto(id, name, sizeOrType, ps);
            }
            case VAR:
                return new BtfType.Var(id, name, sizeOrType, buf.getInt(t));
            case DATASEC: {
                List<BtfType.VarSecInfo> vs = new ArrayList<>(vlen);
                for (int i = 0; i < vlen; i++, t += 12) {
                    vs.add(new BtfType.VarSecInfo(buf.getInt(t), buf.getInt(t + 4), buf.getInt(t + 8)));
                }
                return new BtfType.DataSec(id, name, sizeOrType, vs);
            }
            case FLOAT:
                return new BtfType.Float(id, name, sizeOrType);
            case DECL_TAG:
                return new BtfType.DeclTag(id, name, sizeOrType, buf.getInt(t));
            default:
                throw new BtfException("unknown BTF kind at type " + id); // walk() rejected these
        }
    }
}
