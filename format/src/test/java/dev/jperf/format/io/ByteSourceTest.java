package dev.jperf.format.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jperf.format.PerfDataException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every kind of bytes a source reads (an array, part of one, heap, read-only heap, direct and
 * sliced buffers, a mapped file), in both byte orders, read the same as a ByteBuffer reads them,
 * and every read past either end refused.
 */
class ByteSourceTest {
    private static final int N = 64;

    private static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 37 + 11);
        }
        return b;
    }

    /** The sources of bytes {@code 8..8+N} of {@code pattern(N + 16)}, one of each kind. */
    private static List<ByteSource> sources(Path dir) throws IOException {
        byte[] all = pattern(N + 16);
        byte[] mid = java.util.Arrays.copyOfRange(all, 8, 8 + N);
        List<ByteSource> s = new ArrayList<>();
        s.add(ByteSource.wrap("array", mid));
        s.add(ByteSource.wrap("array part", all, 8, N));
        s.add(ByteSource.wrap("heap", ByteBuffer.wrap(mid)));
        s.add(ByteSource.wrap("heap slice", ByteBuffer.wrap(all, 8, N).slice()));
        s.add(ByteSource.wrap("read-only heap", ByteBuffer.wrap(all, 8, N).slice().asReadOnlyBuffer()));
        ByteBuffer d = ByteBuffer.allocateDirect(N + 16).put(all).flip();
        s.add(ByteSource.wrap("direct slice", d.position(8).limit(8 + N).slice()));
        s.add(ByteSource.wrap("read-only direct", ByteBuffer.allocateDirect(N).put(mid).flip().asReadOnlyBuffer()));
        Path f = dir.resolve("bytes");
        Files.write(f, all);
        s.add(ByteSource.map(f).slice(8, N));
        s.add(ByteSource.wrap("outer", all).slice(4, N + 8).slice(4, N));
        return s;
    }

    @Test
    void everyKindReadsAsAByteBufferInBothOrders(@TempDir Path dir) throws IOException {
        byte[] mid = java.util.Arrays.copyOfRange(pattern(N + 16), 8, 8 + N);
        for (ByteOrder o : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            ByteBuffer want = ByteBuffer.wrap(mid).order(o);
            for (ByteSource s0 : sources(dir)) {
                ByteSource s = s0.withOrder(o);
                String what = s0.name() + " " + o;
                assertEquals(N, s.size(), what);
                for (int i = 0; i < N; i++) {
                    assertEquals(want.get(i) & 0xff, s.u8(i), what + " u8 " + i);
                }
                for (int i = 0; i + 2 <= N; i++) {
                    assertEquals(want.getShort(i) & 0xffff, s.u16(i), what + " u16 " + i);
                }
                for (int i = 0; i + 4 <= N; i++) {
                    assertEquals(want.getInt(i), s.s32(i), what + " s32 " + i);
                    assertEquals(want.getInt(i) & 0xffffffffL, s.u32(i), what + " u32 " + i);
                }
                for (int i = 0; i + 8 <= N; i++) {
                    assertEquals(want.getLong(i), s.u64(i), what + " u64 " + i);
                }
                long[] got = new long[3 + 7];
                s.u64s(3, got, 3, 7);
                for (int k = 0; k < 7; k++) {
                    assertEquals(want.getLong(3 + 8 * k), got[3 + k], what + " u64s " + k);
                }
                assertArrayEquals(java.util.Arrays.copyOfRange(mid, 5, 21), s.bytes(5, 16), what);
                ByteSource sl = s.slice(9, 20);
                assertEquals(want.getLong(9 + 4), sl.u64(4), what + " slice");
            }
        }
    }

    @Test
    void readsPastEitherEndAreRefused(@TempDir Path dir) throws IOException {
        for (ByteSource s : sources(dir)) {
            assertThrows(PerfDataException.class, () -> s.u8(N), s.name());
            assertThrows(PerfDataException.class, () -> s.u8(-1), s.name());
            assertThrows(PerfDataException.class, () -> s.u16(N - 1), s.name());
            assertThrows(PerfDataException.class, () -> s.s32(N - 3), s.name());
            assertThrows(PerfDataException.class, () -> s.u64(N - 7), s.name());
            assertThrows(PerfDataException.class, () -> s.u64(Long.MIN_VALUE), s.name());
            assertThrows(PerfDataException.class, () -> s.u64s(N - 16, new long[3], 0, 3), s.name());
            ByteSource sl = s.slice(16, 8);
            assertEquals(s.u64(16), sl.u64(0));
            assertThrows(PerfDataException.class, () -> sl.u8(8), s.name() + " slice");
            assertThrows(PerfDataException.class, () -> sl.u8(-1), s.name() + " slice");
        }
    }
}
