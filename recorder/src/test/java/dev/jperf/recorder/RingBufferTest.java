package dev.jperf.recorder;

import dev.jperf.nativeshim.RingBuffer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jperf.nativeshim.PerfEventMmapPage;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reading protocol over a mapping laid out as the kernel lays it out (ring-buffer.md §3-4). */
class RingBufferTest {
    private static final int DATA = 128;

    /** Writes a record of {@code size} bytes at absolute position {@code pos} of the data area, wrapping. */
    private static void put(ByteBuffer data, long pos, int type, int size) {
        byte[] rec = new byte[size];
        ByteBuffer r = ByteBuffer.wrap(rec).order(ByteOrder.LITTLE_ENDIAN);
        r.putInt(0, type).putShort(4, (short) (0x8000 | type)).putShort(6, (short) size); // misc: a bit pattern per type
        for (int i = 8; i < size; i++) {
            rec[i] = (byte) (type * 16 + i);
        }
        for (int i = 0; i < size; i++) {
            data.put((int) ((pos + i) % DATA), rec[i]);
        }
    }

    @Test
    void recordsThatWrapAreHandedOutWholeAndTheTailIsReleased() {
        ByteBuffer m = ByteBuffer.allocateDirect(2048 + DATA).order(ByteOrder.LITTLE_ENDIAN);
        m.putLong(PerfEventMmapPage.DATA_OFFSET, 2048);
        m.putLong(PerfEventMmapPage.DATA_SIZE, DATA);
        long start = 1000 * DATA + 80; // a count that never wraps, as the kernel's
        m.putLong(PerfEventMmapPage.DATA_TAIL, start);
        ByteBuffer data = m.slice(2048, DATA).order(ByteOrder.LITTLE_ENDIAN);
        // 80..120, 120..160 (header itself wraps at 128), 160..200
        put(data, start, 3, 40);
        put(data, start + 40, 17, 40);
        put(data, start + 80, 9, 40);
        m.putLong(PerfEventMmapPage.DATA_HEAD, start + 120);
        RingBuffer ring = new RingBuffer(5, 0, m);

        List<int[]> seen = new ArrayList<>();
        List<byte[]> bodies = new ArrayList<>();
        long n = ring.drain((buf, off, address, size, type, misc) -> {
            seen.add(new int[] {type, size});
            assertEquals(0x8000 | type, misc, "misc of record type " + type);
            byte[] b = new byte[size];
            buf.get(off, b);
            bodies.add(b);
        });
        assertEquals(120, n);
        assertEquals(3, seen.size());
        assertArrayEquals(new int[] {3, 40}, seen.get(0));
        assertArrayEquals(new int[] {17, 40}, seen.get(1));
        assertArrayEquals(new int[] {9, 40}, seen.get(2));
        for (int i = 8; i < 40; i++) {
            assertEquals((byte) (17 * 16 + i), bodies.get(1)[i], "byte " + i + " of the wrapped record");
        }
        assertEquals(start + 120, m.getLong(PerfEventMmapPage.DATA_TAIL), "data_tail released");
        assertEquals(0, ring.drain((b, o, a, s, t, x) -> { }), "nothing left");
    }

    @Test
    void drainSkipsToTheHeadAtAnInsaneHeader() {
        ByteBuffer m = ByteBuffer.allocateDirect(2048 + DATA).order(ByteOrder.LITTLE_ENDIAN);
        m.putLong(PerfEventMmapPage.DATA_OFFSET, 2048);
        m.putLong(PerfEventMmapPage.DATA_SIZE, DATA);
        ByteBuffer data = m.slice(2048, DATA).order(ByteOrder.LITTLE_ENDIAN);
        put(data, 0, 18, 56);
        m.putLong(PerfEventMmapPage.DATA_HEAD, 64); // 8 bytes of zero header after the record
        RingBuffer ring = new RingBuffer(5, 0, m);
        List<Integer> types = new ArrayList<>();
        assertEquals(64, ring.drain((b, o, a, s, t, x) -> types.add(t)));
        assertEquals(List.of(18), types);
        assertEquals(64, m.getLong(PerfEventMmapPage.DATA_TAIL), "everything up to the head released");
        assertEquals(64, ring.tail());
    }
}
