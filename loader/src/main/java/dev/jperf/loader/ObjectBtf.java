package dev.jperf.loader;

import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfException;
import dev.jperf.format.btf.BtfKind;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The object's own {@code .BTF}, as libbpf changes it before BTF_LOAD: DATASEC sizes and variable
 * offsets filled in from the ELF, extern variables and functions made loadable, a dummy variable
 * added. Changes patch a private copy of the blob; {@link #btf()} reads it (format's parser over
 * the same bytes, so in-place changes are seen at once).
 */
final class ObjectBtf {
    private byte[] raw;
    private Btf btf;

    ObjectBtf(byte[] raw) {
        this.raw = raw.clone();
        this.btf = Btf.parse(this.raw);
        if (btf.order() != ByteOrder.LITTLE_ENDIAN) {
            throw new BtfException("big-endian BTF in a BPF object for a little-endian host");
        }
    }

    Btf btf() {
        return btf;
    }

    /** The blob as it is now, for BTF_LOAD. */
    byte[] bytes() {
        return raw.clone();
    }

    private int at(int id) {
        return btf.typeOffset(id);
    }

    private int getInt(int pos) {
        return ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).getInt(pos);
    }

    private void putInt(int pos, int v) {
        ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).putInt(pos, v);
    }

    int nameOff(int id) {
        return getInt(at(id));
    }

    int info(int id) {
        return getInt(at(id) + 4);
    }

    void setInfo(int id, int kind, int vlen, boolean kflag) {
        putInt(at(id) + 4, (kflag ? 1 << 31 : 0) | (kind << 24) | (vlen & 0xffff));
    }

    /** struct btf_type's size/type field. */
    void setSizeOrType(int id, int v) {
        putInt(at(id) + 8, v);
    }

    /** btf_var(t)->linkage. */
    void setVarLinkage(int id, int linkage) {
        check(id, BtfKind.VAR);
        putInt(at(id) + 12, linkage);
    }

    /** The i-th btf_var_secinfo of a DATASEC: {type, offset, size}. */
    int[] vsi(int datasecId, int i) {
        int p = at(datasecId) + 12 + 12 * i;
        return new int[] {getInt(p), getInt(p + 4), getInt(p + 8)};
    }

    void setVsi(int datasecId, int i, int type, int offset, int size) {
        check(datasecId, BtfKind.DATASEC);
        int p = at(datasecId) + 12 + 12 * i;
        putInt(p, type);
        putInt(p + 4, offset);
        putInt(p + 8, size);
    }

    /** Sorts a DATASEC's variables by offset (libbpf's compare_vsi_off). */
    void sortVsi(int datasecId) {
        int n = info(datasecId) & 0xffff;
        int[][] v = new int[n][];
        for (int i = 0; i < n; i++) {
            v[i] = vsi(datasecId, i);
        }
        Arrays.sort(v, (a, b) -> Integer.compare(a[1], b[1]));
        for (int i = 0; i < n; i++) {
            setVsi(datasecId, i, v[i][0], v[i][1], v[i][2]);
        }
    }

    /** The name offset of a FUNC_PROTO's i-th parameter. */
    int paramNameOff(int protoId, int i) {
        return getInt(at(protoId) + 12 + 8 * i);
    }

    void setParamNameOff(int protoId, int i, int nameOff) {
        check(protoId, BtfKind.FUNC_PROTO);
        putInt(at(protoId) + 12 + 8 * i, nameOff);
    }

    private void check(int id, BtfKind kind) {
        if (BtfTypes.kind(btf, id) != kind) {
            throw new BtfException("BTF type " + id + " is " + btf.kind(id) + ", expected " + kind);
        }
    }

    /** btf__add_var: appends a VAR (and its name) and returns its id. */
    int addVar(String name, int linkage, int type) {
        int typeOff = btf.typeSectionOffset();
        int typeLen = btf.typeSectionLength();
        int strOff = btf.stringSectionOffset();
        int strLen = btf.stringSectionLength();
        byte[] nameBytes = (name + "\0").getBytes(StandardCharsets.UTF_8);
        ByteBuffer var = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        var.putInt(strLen).putInt(BtfKind.VAR.number() << 24).putInt(type).putInt(linkage);
        ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length + 16 + nameBytes.length);
        ByteBuffer hdr = ByteBuffer.allocate(Btf.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        hdr.putShort((short) Btf.BTF_MAGIC).put((byte) 1).put((byte) 0).putInt(Btf.HEADER_SIZE);
        hdr.putInt(0).putInt(typeLen + 16).putInt(typeLen + 16).putInt(strLen + nameBytes.length);
        out.writeBytes(hdr.array());
        out.write(raw, typeOff, typeLen);
        out.writeBytes(var.array());
        out.write(raw, strOff, strLen);
        out.writeBytes(nameBytes);
        raw = out.toByteArray();
        btf = Btf.parse(raw);
        return btf.lastId();
    }
}
