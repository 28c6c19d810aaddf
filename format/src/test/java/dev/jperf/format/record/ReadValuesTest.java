package dev.jperf.format.record;

import static dev.jperf.format.header.PerfEventAttr.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** read(2) of a perf event fd decoded by the same decoder as READ records (struct read_format, perf_event.h). */
class ReadValuesTest {
    private static byte[] words(long... w) {
        ByteBuffer b = ByteBuffer.allocate(8 * w.length).order(ByteOrder.LITTLE_ENDIAN);
        for (long x : w) {
            b.putLong(x);
        }
        return b.array();
    }

    @Test
    void singleCounterInUapiOrder() {
        long rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID | PERF_FORMAT_LOST;
        assertEquals(40, ReadValues.readSize(rf));
        ReadValues v = ReadValues.fromRead(words(7, 100, 50, 42, 3), rf);
        assertArrayEquals(new long[] {7}, v.values());
        assertEquals(100, v.timeEnabled());
        assertEquals(50, v.timeRunning());
        assertArrayEquals(new long[] {42}, v.ids());
        assertArrayEquals(new long[] {3}, v.lost());
    }

    @Test
    void absentFieldsAndGroup() {
        assertEquals(8, ReadValues.readSize(0));
        ReadValues only = ReadValues.fromRead(words(9), 0);
        assertEquals(-1, only.timeEnabled());
        assertNull(only.ids());
        long rf = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_ID;
        ReadValues g = ReadValues.fromRead(words(2, 100, 5, 50, 6, 60), rf);
        assertArrayEquals(new long[] {5, 6}, g.values());
        assertArrayEquals(new long[] {50, 60}, g.ids());
        assertEquals(100, g.timeEnabled());
    }

    @Test
    void shortReadIsRefused() {
        long rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
        assertThrows(IllegalArgumentException.class, () -> ReadValues.fromRead(words(1, 2), rf));
        assertThrows(IllegalArgumentException.class, () -> ReadValues.fromRead(words(5, 0), PERF_FORMAT_GROUP));
    }
}
