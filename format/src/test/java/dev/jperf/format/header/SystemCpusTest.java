package dev.jperf.format.header;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

class SystemCpusTest {
    /** With a gap, libbpf's count and perf's bound differ: that is why both are named. */
    @Test
    void possibleCountAndMaxCpuDifferOnAGap() {
        assertEquals(3, SystemCpus.possibleCount("0-1,4\n"));
        assertEquals(5, SystemCpus.maxCpu("0-1,4\n"));
        assertEquals(4, SystemCpus.possibleCount("0-3\n"));
        assertEquals(4, SystemCpus.maxCpu("0-3\n"));
        assertEquals(0, SystemCpus.maxCpu("\n"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SystemCpus.possibleCount("x"));
        assertEquals("bad mask 'x' in /sys/devices/system/cpu/possible", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SystemCpus.possibleCount("\n"), "none possible");
    }

    @Test
    void thisMachinesOnlineCpusArePossible() throws IOException {
        assumeTrue(Files.isReadable(SystemCpus.POSSIBLE) && Files.isReadable(SystemCpus.ONLINE), "no sysfs cpu lists");
        List<Integer> online = SystemCpus.online();
        assertFalse(online.isEmpty());
        assertTrue(online.get(online.size() - 1) < SystemCpus.maxCpu());
        assertTrue(SystemCpus.possibleCount() >= online.size());
        assertEquals(online.size(), SystemCpus.onlineArray().length);
    }

    @Test
    void openAttrIsPerf61sSizeLittleEndian() {
        ByteBuffer a = PerfEventAttr.open(PerfEventAttr.PERF_TYPE_SOFTWARE, 0x1122334455667788L);
        assertEquals(PerfEventAttr.PERF_ATTR_SIZE_VER7, a.capacity());
        assertEquals(ByteOrder.LITTLE_ENDIAN, a.order());
        assertEquals(PerfEventAttr.PERF_TYPE_SOFTWARE, a.getInt(PerfEventAttr.TYPE));
        assertEquals(128, a.getInt(PerfEventAttr.SIZE));
        assertEquals(0x88, a.get(PerfEventAttr.CONFIG) & 0xff, "little-endian");
        for (int i = PerfEventAttr.CONFIG + 8; i < 128; i++) {
            assertEquals(0, a.get(i), "byte " + i);
        }
    }
}
