package dev.jperf.format.btf;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Builds a raw BTF blob (uapi linux/btf.h) type by type: for tests that load BTF into the kernel
 * and tests of code that reads BTF (CO-RE relocation, dumping).
 */
public final class BtfWriter {
    public static final int INT = 1, PTR = 2, ARRAY = 3, STRUCT = 4, UNION = 5, ENUM = 6, FWD = 7, TYPEDEF = 8,
            VOLATILE = 9, CONST = 10, RESTRICT = 11, FUNC = 12, FUNC_PROTO = 13, VAR = 14, DATASEC = 15,
            FLOAT = 16, DECL_TAG = 17, TYPE_TAG = 18, ENUM64 = 19;
    public static final int SIGNED = 1, CHAR = 2, BOOL = 4;

    private final ByteBuffer types = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
    private final ByteArrayOutputStream strings = new ByteArrayOutputStream();
    private final Map<String, Integer> stringOffsets = new HashMap<>();
    private int lastId;

    public BtfWriter() {
        strings.write(0);
        stringOffsets.put("", 0);
    }

    /** The offset of {@code s} in the string section, added if new (CO-RE access strings live there). */
    public int string(String s) {
        return str(s);
    }

    private int str(String s) {
        return stringOffsets.computeIfAbsent(s, k -> {
            int off = strings.size();
            byte[] b = k.getBytes(StandardCharsets.UTF_8);
            strings.write(b, 0, b.length);
            strings.write(0);
            return off;
        });
    }

    private int head(String name, int kind, int vlen, boolean kflag, int sizeOrType) {
        types.putInt(str(name));
        types.putInt((kflag ? 1 << 31 : 0) | kind << 24 | vlen);
        types.putInt(sizeOrType);
        return ++lastId;
    }

    public int integer(String name, int size, int encoding, int bits) {
        return integer(name, size, encoding, 0, bits);
    }

    public int integer(String name, int size, int encoding, int offset, int bits) {
        int id = head(name, INT, 0, false, size);
        types.putInt(encoding << 24 | offset << 16 | bits);
        return id;
    }

    public int ref(int kind, String name, int type) {
        return head(name, kind, 0, false, type);
    }

    public int array(int elem, int index, int nelems) {
        int id = head("", ARRAY, 0, false, 0);
        types.putInt(elem).putInt(index).putInt(nelems);
        return id;
    }

    /** {@code members}: name, type, bit offset, bitfield size (kflag set when any bitfield size is non-zero). */
    public int composite(int kind, String name, int size, Object... members) {
        boolean kflag = false;
        for (int i = 3; i < members.length; i += 4) {
            kflag |= (Integer) members[i] != 0;
        }
        int id = head(name, kind, members.length / 4, kflag, size);
        for (int i = 0; i < members.length; i += 4) {
            int off = (Integer) members[i + 2];
            types.putInt(str((String) members[i])).putInt((Integer) members[i + 1])
                    .putInt(kflag ? (Integer) members[i + 3] << 24 | off : off);
        }
        return id;
    }

    /** {@code values}: name, value pairs. */
    public int enumeration(String name, int size, boolean signed, Object... values) {
        int id = head(name, ENUM, values.length / 2, signed, size);
        for (int i = 0; i < values.length; i += 2) {
            types.putInt(str((String) values[i])).putInt((Integer) values[i + 1]);
        }
        return id;
    }

    public int enum64(String name, int size, Object... values) {
        int id = head(name, ENUM64, values.length / 2, false, size);
        for (int i = 0; i < values.length; i += 2) {
            long v = (Long) values[i + 1];
            types.putInt(str((String) values[i])).putInt((int) v).putInt((int) (v >>> 32));
        }
        return id;
    }

    public int var(String name, int type) {
        int id = head(name, VAR, 0, false, type);
        types.putInt(1); // global
        return id;
    }

    /** {@code vars}: var type id, offset, size triples. */
    public int datasec(String name, int size, int... vars) {
        int id = head(name, DATASEC, vars.length / 3, false, size);
        for (int v : vars) {
            types.putInt(v);
        }
        return id;
    }

    public int fwd(String name, boolean union) {
        return head(name, FWD, 0, union, 0);
    }

    /** {@code params}: name, type pairs. */
    public int funcProto(int returnType, Object... params) {
        int id = head("", FUNC_PROTO, params.length / 2, false, returnType);
        for (int i = 0; i < params.length; i += 2) {
            types.putInt(str((String) params[i])).putInt((Integer) params[i + 1]);
        }
        return id;
    }

    public byte[] bytes() {
        byte[] s = strings.toByteArray();
        int typeLen = types.position();
        ByteBuffer b = ByteBuffer.allocate(24 + typeLen + s.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort((short) 0xeb9f).put((byte) 1).put((byte) 0).putInt(24);
        b.putInt(0).putInt(typeLen).putInt(typeLen).putInt(s.length);
        b.put(types.array(), 0, typeLen).put(s);
        return b.array();
    }
}
