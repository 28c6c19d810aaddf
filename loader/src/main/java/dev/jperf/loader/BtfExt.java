package dev.jperf.loader;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The {@code .BTF.ext} section (struct btf_ext_header, then func_info, line_info and CO-RE
 * relocation records per ELF section). Instruction offsets stay in bytes, as clang writes them.
 * Every offset, length and record size is checked against the section before use.
 */
final class BtfExt {
    static final int BTF_MAGIC = 0xeb9f;
    static final int MIN_FUNC_INFO_REC = 8;
    static final int MIN_LINE_INFO_REC = 16;
    static final int CORE_RELO_REC = 16;

    /** One section's records: {@code sectionNameOff} into the object's BTF strings, records of {@code recSize} bytes. */
    record Sec(int sectionNameOff, int recSize, byte[] records) {
        int count() {
            return records.length / recSize;
        }

        /** The first u32 of record i: its instruction offset in bytes. */
        int insnOff(int i) {
            return ByteBuffer.wrap(records, i * recSize, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        }

        int u32(int i, int field) {
            return ByteBuffer.wrap(records, i * recSize + field * 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        }
    }

    final List<Sec> funcInfo;
    final List<Sec> lineInfo;
    final List<Sec> coreRelo;

    BtfExt(byte[] b, String what) throws BpfObjectException {
        ByteBuffer buf = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        if (b.length < 24 || (buf.getShort(0) & 0xffff) != BTF_MAGIC) {
            throw new BpfObjectException(what + ": bad .BTF.ext header");
        }
        long hdrLen = Integer.toUnsignedLong(buf.getInt(4));
        if (hdrLen < 24 || hdrLen > b.length) {
            throw new BpfObjectException(what + ": bad .BTF.ext hdr_len " + hdrLen);
        }
        funcInfo = infos(buf, hdrLen, 8, MIN_FUNC_INFO_REC, what, "func_info");
        lineInfo = infos(buf, hdrLen, 16, MIN_LINE_INFO_REC, what, "line_info");
        coreRelo = hdrLen >= 32 ? infos(buf, hdrLen, 24, CORE_RELO_REC, what, "core_relo") : List.of();
    }

    private static List<Sec> infos(ByteBuffer buf, long hdrLen, int fieldAt, int minRec, String what, String kind)
            throws BpfObjectException {
        long off = hdrLen + Integer.toUnsignedLong(buf.getInt(fieldAt));
        long len = Integer.toUnsignedLong(buf.getInt(fieldAt + 4));
        if (len == 0) {
            return List.of();
        }
        if (off + len > buf.limit() || len < 4) {
            throw new BpfObjectException(what + ": .BTF.ext " + kind + " at " + off + "+" + len + " past the section ("
                    + buf.limit() + " bytes)");
        }
        int p = (int) off;
        int end = (int) (off + len);
        long recSize = Integer.toUnsignedLong(buf.getInt(p));
        if (recSize < minRec || recSize > 1024 || (recSize & 3) != 0) {
            throw new BpfObjectException(what + ": .BTF.ext " + kind + " record size " + recSize);
        }
        p += 4;
        List<Sec> out = new ArrayList<>();
        while (p < end) {
            if (end - p < 8) {
                throw new BpfObjectException(what + ": .BTF.ext " + kind + " ends inside a section header");
            }
            int nameOff = buf.getInt(p);
            long num = Integer.toUnsignedLong(buf.getInt(p + 4));
            p += 8;
            if (num == 0 || num * recSize > end - p) {
                throw new BpfObjectException(what + ": .BTF.ext " + kind + " section with " + num + " records of "
                        + recSize + " bytes in " + (end - p) + " bytes");
            }
            byte[] recs = new byte[(int) (num * recSize)];
            buf.get(p, recs);
            p += recs.length;
            out.add(new Sec(nameOff, (int) recSize, recs));
        }
        return Collections.unmodifiableList(out);
    }
}
