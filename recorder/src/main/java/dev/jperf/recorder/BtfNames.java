package dev.jperf.recorder;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The one BTF lookup the recorder needs: the name of a type id (a FUNC named by func_info), to
 * name synthesized KSYMBOLs as perf does (bpf-metadata.md §2.4, §11). Returns null for anything
 * malformed rather than failing the recording.
 */
final class BtfNames {
    private BtfNames() {}

    static String name(byte[] btf, int typeId) {
        if (btf == null || btf.length < 24 || typeId <= 0) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(btf).order(ByteOrder.LITTLE_ENDIAN);
        if ((b.getShort(0) & 0xffff) != 0xeb9f) {
            return null;
        }
        long hdrLen = Integer.toUnsignedLong(b.getInt(4));
        long typeStart = hdrLen + Integer.toUnsignedLong(b.getInt(8));
        long typeEnd = typeStart + Integer.toUnsignedLong(b.getInt(12));
        long strStart = hdrLen + Integer.toUnsignedLong(b.getInt(16));
        long strEnd = strStart + Integer.toUnsignedLong(b.getInt(20));
        if (typeEnd > btf.length || strEnd > btf.length) {
            return null;
        }
        long p = typeStart;
        for (int id = 1; p + 12 <= typeEnd; id++) {
            int nameOff = b.getInt((int) p);
            int info = b.getInt((int) p + 4);
            if (id == typeId) {
                return string(btf, strStart, strEnd, Integer.toUnsignedLong(nameOff));
            }
            int vlen = info & 0xffff;
            int kind = (info >>> 24) & 0x1f;
            long extra = switch (kind) {
                case 1, 14, 17 -> 4;
                case 3 -> 12;
                case 4, 5, 15, 19 -> 12L * vlen;
                case 6, 13 -> 8L * vlen;
                case 2, 7, 8, 9, 10, 11, 12, 16, 18 -> 0;
                default -> -1;
            };
            if (extra < 0) {
                return null;
            }
            p += 12 + extra;
        }
        return null;
    }

    private static String string(byte[] btf, long start, long end, long off) {
        long s = start + off;
        if (s >= end) {
            return null;
        }
        int e = (int) s;
        while (e < end && btf[e] != 0) {
            e++;
        }
        return new String(btf, (int) s, e - (int) s, StandardCharsets.UTF_8);
    }
}
