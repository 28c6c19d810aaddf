package dev.jperf.format;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Builds small perf.data images byte by byte, in either byte order, for decoder tests. */
final class TestFile {
    final ByteOrder order;
    private final List<byte[]> attrs = new ArrayList<>();
    private final List<long[]> ids = new ArrayList<>();
    private final ByteArrayOutputStream data = new ByteArrayOutputStream();

    TestFile(ByteOrder order) {
        this.order = order;
    }

    /** A growable buffer in the file's byte order. */
    final class Buf {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Buf u8(int v) {
            out.write(v);
            return this;
        }

        Buf u16(int v) {
            return put(ByteBuffer.allocate(2).order(order).putShort((short) v).array());
        }

        Buf u32(long v) {
            return put(ByteBuffer.allocate(4).order(order).putInt((int) v).array());
        }

        Buf u64(long v) {
            return put(ByteBuffer.allocate(8).order(order).putLong(v).array());
        }

        Buf put(byte[] b) {
            out.write(b, 0, b.length);
            return this;
        }

        /** NUL-terminated, padded with NULs to a multiple of 8. */
        Buf str8(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            put(b);
            int n = b.length + 1;
            int pad = (n + 7) / 8 * 8;
            for (int i = b.length; i < pad; i++) {
                out.write(0);
            }
            return this;
        }

        int size() {
            return out.size();
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }

    Buf buf() {
        return new Buf();
    }

    /** A 128-byte attr; {@code flags} is the bit-field word (bit 0 = disabled, as on little-endian). */
    TestFile attr(int type, long config, long sampleType, long readFormat, long flags, long branchSampleType,
            long regsUser, long regsIntr, long... eventIds) {
        long bf = order == ByteOrder.BIG_ENDIAN ? Long.reverse(flags) : flags;
        Buf b = buf().u32(type).u32(128).u64(config).u64(1000).u64(sampleType).u64(readFormat).u64(bf)
                .u32(0).u32(0).u64(0).u64(0).u64(branchSampleType).u64(regsUser).u32(0).u32(0).u64(regsIntr);
        while (b.size() < 128) {
            b.u8(0);
        }
        attrs.add(b.bytes());
        ids.add(eventIds);
        return this;
    }

    /** Appends a record: header (type, misc, size computed) and body. */
    TestFile record(int type, int misc, Buf body) {
        return record(type, misc, body, 0);
    }

    /** Appends a record whose header.size claims {@code extra} more bytes (filled with 0xee). */
    TestFile record(int type, int misc, Buf body, int extra) {
        byte[] b = body.bytes();
        Buf r = buf().u32(type).u16(misc).u16(8 + b.length + extra).put(b);
        for (int i = 0; i < extra; i++) {
            r.u8(0xee);
        }
        data.write(r.bytes(), 0, r.size());
        return this;
    }

    byte[] build() {
        Buf idBytes = buf();
        long idsAt = 104;
        List<long[]> idSections = new ArrayList<>();
        for (long[] list : ids) {
            idSections.add(new long[] {idsAt + idBytes.size(), 8L * list.length});
            for (long id : list) {
                idBytes.u64(id);
            }
        }
        long attrsAt = idsAt + idBytes.size();
        Buf attrSec = buf();
        for (int i = 0; i < attrs.size(); i++) {
            attrSec.put(attrs.get(i)).u64(idSections.get(i)[0]).u64(idSections.get(i)[1]);
        }
        long dataAt = attrsAt + attrSec.size();
        Buf f = buf().put("PERFILE2".getBytes(StandardCharsets.US_ASCII));
        if (order == ByteOrder.BIG_ENDIAN) {
            // the magic is written as a u64 in the writer's order
            f = buf().u64(0x32454c4946524550L);
        }
        f.u64(104).u64(144).u64(attrsAt).u64(attrSec.size()).u64(dataAt).u64(data.size()).u64(0).u64(0)
                .u64(0).u64(0).u64(0).u64(0);
        f.put(idBytes.bytes()).put(attrSec.bytes()).put(data.toByteArray());
        return f.bytes();
    }
}
