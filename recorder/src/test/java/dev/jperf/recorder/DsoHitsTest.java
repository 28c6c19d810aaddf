package dev.jperf.recorder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class DsoHitsTest {
    private static final int PERF_RECORD_MISC_USER = 2;
    private static final int PERF_RECORD_MISC_KERNEL = 1;
    private static final int PERF_RECORD_MISC_COMM_EXEC = 0x2000;
    /** A sample of PERF_SAMPLE_IP | PERF_SAMPLE_TID: ip at 8, pid at 16. */
    private static final int IP_AT = 8;
    private static final int PID_AT = 16;

    private static ByteBuffer mmap2(int pid, long start, long len, int prot, String file) {
        byte[] name = file.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(72 + (name.length + 8) / 8 * 8).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(8, pid).putInt(12, pid).putLong(16, start).putLong(24, len).putInt(64, prot);
        b.put(72, name);
        return b;
    }

    private static void sample(DsoHits h, int pid, long ip, int mode) {
        MappedByteBuffer b = RingBuffer.direct(24);
        b.putLong(IP_AT, ip).putInt(PID_AT, pid).putInt(PID_AT + 4, pid);
        h.sample(b, 0, 24, mode);
    }

    @Test
    void marksTheDsoOfEachUserSampleAndFollowsMapChanges() {
        DsoHits h = new DsoHits(IP_AT, PID_AT);
        ByteBuffer a = mmap2(100, 0x1000, 0x1000, 5, "/a");
        h.mmap2(a, 0, a.capacity());
        ByteBuffer b = mmap2(100, 0x3000, 0x1000, 5, "/b");
        h.mmap2(b, 0, b.capacity());
        ByteBuffer data = mmap2(100, 0x5000, 0x1000, 3, "/data");
        h.mmap2(data, 0, data.capacity());
        sample(h, 100, 0x1500, PERF_RECORD_MISC_USER);
        sample(h, 100, 0x1600, PERF_RECORD_MISC_USER);
        sample(h, 100, 0x2500, PERF_RECORD_MISC_USER); // between maps
        sample(h, 100, 0x5500, PERF_RECORD_MISC_USER); // not executable: not a map for ips
        sample(h, 200, 0x3500, PERF_RECORD_MISC_USER); // another process, no maps
        assertEquals(List.of("/a"), List.copyOf(h.userDsos()));
        assertTrue(!h.kernelHit());
        sample(h, 100, 0x3fff, PERF_RECORD_MISC_USER);
        sample(h, 100, 0xffffffff81000000L, PERF_RECORD_MISC_KERNEL);
        assertEquals(List.of("/a", "/b"), List.copyOf(h.userDsos()));
        assertTrue(h.kernelHit());
        // exec replaces the maps; the same range is now another file (the last hit must not stick)
        ByteBuffer comm = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN).putInt(8, 100).putInt(12, 100);
        h.comm(comm, 0, PERF_RECORD_MISC_COMM_EXEC);
        ByteBuffer c = mmap2(100, 0x3000, 0x1000, 5, "/c");
        h.mmap2(c, 0, c.capacity());
        sample(h, 100, 0x3500, PERF_RECORD_MISC_USER);
        assertEquals(List.of("/a", "/b", "/c"), List.copyOf(h.userDsos()));
        // a fork inherits the parent's maps
        ByteBuffer fork = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN).putInt(8, 300).putInt(12, 100);
        h.fork(fork, 0);
        ByteBuffer d = mmap2(100, 0x3000, 0x1000, 5, "/d");
        h.mmap2(d, 0, d.capacity());
        sample(h, 300, 0x3500, PERF_RECORD_MISC_USER);
        sample(h, 100, 0x3500, PERF_RECORD_MISC_USER);
        assertEquals(List.of("/a", "/b", "/c", "/d"), List.copyOf(h.userDsos()));
    }

    /** A map starting inside another: ips from its start on are its own, also right after a hit of the outer one. */
    @Test
    void aMapStartingInsideTheLastHitOneEndsTheQuietRange() {
        DsoHits h = new DsoHits(IP_AT, PID_AT);
        ByteBuffer x = mmap2(100, 0x10000, 0x10000, 5, "/x");
        h.mmap2(x, 0, x.capacity());
        ByteBuffer y = mmap2(100, 0x18000, 0x1000, 5, "/y");
        h.mmap2(y, 0, y.capacity());
        sample(h, 100, 0x11000, PERF_RECORD_MISC_USER);
        sample(h, 100, 0x18500, PERF_RECORD_MISC_USER);
        assertEquals(List.of("/x", "/y"), List.copyOf(h.userDsos()));
        // and a process without maps stays quiet until it gets one
        sample(h, 400, 0x11000, PERF_RECORD_MISC_USER);
        ByteBuffer z = mmap2(400, 0x10000, 0x10000, 5, "/z");
        h.mmap2(z, 0, z.capacity());
        sample(h, 400, 0x11000, PERF_RECORD_MISC_USER);
        assertEquals(List.of("/x", "/y", "/z"), List.copyOf(h.userDsos()));
    }

    /** The lookup remembers where each process's last sample landed: a gap, a map, the next map. */
    @Test
    void samplesMovingBetweenGapsAndMapsOfSeveralProcessesFindTheirMaps() {
        DsoHits h = new DsoHits(IP_AT, PID_AT);
        for (int pid : new int[] {100, 200}) {
            ByteBuffer a = mmap2(pid, 0x10000, 0x1000, 5, "/a" + pid);
            h.mmap2(a, 0, a.capacity());
            ByteBuffer b = mmap2(pid, 0x20000, 0x1000, 5, "/b" + pid);
            h.mmap2(b, 0, b.capacity());
        }
        sample(h, 100, 0x800, PERF_RECORD_MISC_USER); // below every map
        sample(h, 200, 0x18000, PERF_RECORD_MISC_USER); // between the two
        sample(h, 100, 0x900, PERF_RECORD_MISC_USER);
        sample(h, 200, 0x30000, PERF_RECORD_MISC_USER); // above
        assertEquals(List.of(), List.copyOf(h.userDsos()));
        sample(h, 200, 0x20fff, PERF_RECORD_MISC_USER);
        sample(h, 200, 0x21000, PERF_RECORD_MISC_USER); // the end is outside
        sample(h, 100, 0x10000, PERF_RECORD_MISC_USER);
        assertEquals(List.of("/b200", "/a100"), List.copyOf(h.userDsos()));
        // a map in the gap the last lookup of 200 found
        ByteBuffer c = mmap2(200, 0x18000, 0x1000, 5, "/c");
        h.mmap2(c, 0, c.capacity());
        sample(h, 200, 0x18000, PERF_RECORD_MISC_USER);
        // a child's own map changes nothing in its parent's
        ByteBuffer fork = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN).putInt(8, 300).putInt(12, 100);
        h.fork(fork, 0);
        ByteBuffer e = mmap2(300, 0x800, 0x1000, 5, "/e");
        h.mmap2(e, 0, e.capacity());
        sample(h, 100, 0x800, PERF_RECORD_MISC_USER);
        assertEquals(List.of("/b200", "/a100", "/c"), List.copyOf(h.userDsos()));
        sample(h, 300, 0x800, PERF_RECORD_MISC_USER);
        sample(h, 300, 0x10500, PERF_RECORD_MISC_USER); // inherited
        assertEquals(List.of("/b200", "/a100", "/c", "/e"), List.copyOf(h.userDsos()));
    }
}
