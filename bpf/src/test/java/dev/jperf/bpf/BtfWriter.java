package dev.jperf.bpf;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** Builds a raw BTF blob (uapi linux/btf.h) type by type, for tests that load BTF into the kernel. */
final class BtfWriter {
    static final int INT = 1, PTR = 2, ARRAY = 3, STRUCT = 4, UNION = 5, ENUM = 6, FWD = 7, TYPEDEF = 8,
            VOLATILE = 9, CONST = 10, RESTRICT = 11, FUNC = 12, FUNC_PROTO = 13, VAR = 14, DATASEC = 15,
            FLOAT = 16, DECL_TAG = 17, TYPE_TAG = 18, ENUM64 = 19;
    static final int SIGNED = 1, CHAR = 2, BOOL = 4;

    private final ByteBuffer types = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
    private final ByteArrayOutputStream strings = new ByteArrayOutputStream();
    private final Map<String, Integer> stringOffsets = new HashMap<>();
    private int lastId;

    BtfWriter() {
        strings.write(0);
        stringOffsets.put("", 0);
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

    int integer(String name, int size, int encoding, int bits) {
        return integer(name, size, encoding, 0, bits);
    }

    int integer(String name, int size, int encoding, int offset, int bits) {
        int id = head(name, INT, 0, false, size);
        types.putInt(encoding << 24 | offset << 16 | bits);
        return id;
    }

    int ref(int kind, String name, int type) {
        return head(name, kind, 0, false, type);
    }

    int array(int elem, int index, int nelems) {
        int id = head("", ARRAY, 0, false, 0);
        types.putInt(elem).putInt(index).putInt(nelems);
        return id;
    }

    /** {@code members}: name, type, bit offset, bitfield size (kflag set when any bitfield size is non-zero). */
    int composite(int kind, String name, int size, Object... members) {
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
    int enumeration(String name, int size, boolean signed, Object... values) {
        int id = head(name, ENUM, values.length / 2, signed, size);
        for (int i = 0; i < values.length; i += 2) {
            types.putInt(str((String) values[i])).putInt((Integer) values[i + 1]);
        }
        return id;
    }

    int enum64(String name, int size, Object... values) {
        int id = head(name, ENUM64, values.length / 2, false, size);
        for (int i = 0; i < values.length; i += 2) {
            long v = (Long) values[i + 1];
            types.putInt(str((String) values[i])).putInt((int) v).putInt((int) (v >>> 32));
        }
        return id;
    }

    int var(String name, int type) {
        int id = head(name, VAR, 0, false, type);
        types.putInt(1); // global
        return id;
    }

    /** {@code vars}: var type id, offset, size triples. */
    int datasec(String name, int size, int... vars) {
        int id = head(name, DATASEC, vars.length / 3, false, size);
        for (int v : vars) {
            types.putInt(v);
        }
        return id;
    }

    byte[] bytes() {
        byte[] s = strings.toByteArray();
        int typeLen = types.position();
        ByteBuffer b = ByteBuffer.allocate(24 + typeLen + s.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort((short) 0xeb9f).put((byte) 1).put((byte) 0).putInt(24);
        b.putInt(0).putInt(typeLen).putInt(typeLen).putInt(s.length);
        b.put(types.array(), 0, typeLen).put(s);
        return b.array();
    }
}
