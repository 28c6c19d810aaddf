package dev.jperf.recorder;

import dev.jperf.nativeshim.RawMemory;
import dev.jperf.nativeshim.RingBuffer;
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

    /** An MMAP2 record of {@code file}, followed by {@code h}. */
    private static void map(DsoHits h, int pid, long start, long len, int prot, String file) {
        ByteBuffer b = mmap2(pid, start, len, prot, file);
        h.mmap2(b, 0, b.capacity());
    }

    private static void sample(DsoHits h, int pid, long ip, int mode) {
        MappedByteBuffer b = RingBuffer.direct(24);
        b.putLong(IP_AT, ip).putInt(PID_AT, pid).putInt(PID_AT + 4, pid);
        h.sample(RawMemory.address(b), 24, mode);
        java.lang.ref.Reference.reachabilityFence(b); // read by address: b must outlive the call
    }

    @Test
    void marksTheDsoOfEachUserSampleAndFollowsMapChanges() {
        DsoHits h = new DsoHits(IP_AT, PID_AT);
        map(h, 100, 0x1000, 0x1000, 5, "/a");
        map(h, 100, 0x3000, 0x1000, 5, "/b");
        map(h, 100, 0x5000, 0x1000, 3, "/data");
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
        map(h, 100, 0x3000, 0x1000, 5, "/c");
        sample(h, 100, 0x3500, PERF_RECORD_MISC_USER);
        assertEquals(List.of("/a", "/b", "/c"), List.copyOf(h.userDsos()));
        // a fork inherits the parent's maps
        ByteBuffer fork = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN).putInt(8, 300).putInt(12, 100);
        h.fork(fork, 0);
        map(h, 100, 0x3000, 0x1000, 5, "/d");
        sample(h, 300, 0x3500, PERF_RECORD_MISC_USER);
        sample(h, 100, 0x3500, PERF_RECORD_MISC_USER);
        assertEquals(List.of("/a", "/b", "/c", "/d"), List.copyOf(h.userDsos()));
    }

    /**
     * Processes taking turns (a ring holds their samples interleaved), a process first seen
     * without maps that gets them later, a map replaced under a process's last hit, samples moving
     * between one process's DSOs: the lookup's shortcuts never keep a DSO from being marked.
     */
    @Test
    void interleavedProcessesAndChangingMapsMarkEveryDso() {
        DsoHits h = new DsoHits(IP_AT, PID_AT);
        map(h, 100, 0x1000, 0x1000, 5, "/a");
        map(h, 200, 0x1000, 0x1000, 5, "/b");
        for (int i = 0; i < 3; i++) {
            sample(h, 100, 0x1100 + i, PERF_RECORD_MISC_USER);
            sample(h, 200, 0x1200 + i, PERF_RECORD_MISC_USER);
            sample(h, 300, 0x1300 + i, PERF_RECORD_MISC_USER); // no maps yet
            sample(h, 100 + 16, 0x1400, PERF_RECORD_MISC_USER); // the same slot of the pid table as 100
        }
        assertEquals(List.of("/a", "/b"), List.copyOf(h.userDsos()));
        // 300 gets maps: its "no maps" must not stick
        map(h, 300, 0x1000, 0x1000, 5, "/c");
        sample(h, 300, 0x1300, PERF_RECORD_MISC_USER);
        // 100's map at the same start is replaced: its quiet range must not stick
        sample(h, 100, 0x1100, PERF_RECORD_MISC_USER);
        map(h, 100, 0x1000, 0x1000, 5, "/d");
        sample(h, 200, 0x1200, PERF_RECORD_MISC_USER);
        sample(h, 100, 0x1100, PERF_RECORD_MISC_USER);
        assertEquals(List.of("/a", "/b", "/c", "/d"), List.copyOf(h.userDsos()));
        // samples moving between a process's DSOs: each one's first sample marks it
        map(h, 400, 0x1000, 0x1000, 5, "/e");
        map(h, 400, 0x3000, 0x1000, 5, "/f");
        map(h, 400, 0x5000, 0x1000, 5, "/g");
        map(h, 400, 0x7000, 0x1000, 5, "/h");
        map(h, 400, 0x9000, 0x1000, 5, "/i");
        for (long ip : new long[] {0x1100, 0x3100, 0x1200, 0x2100, 0x3200, 0x5100, 0x7100, 0x1300, 0x9100}) {
            sample(h, 400, ip, PERF_RECORD_MISC_USER);
        }
        assertEquals(List.of("/a", "/b", "/c", "/d", "/e", "/f", "/g", "/h", "/i"), List.copyOf(h.userDsos()));
    }

    /** A map starting inside another: ips from its start on are its own, also right after a hit of the outer one. */
    @Test
    void aMapStartingInsideTheLastHitOneEndsTheQuietRange() {
        DsoHits h = new DsoHits(IP_AT, PID_AT);
        map(h, 100, 0x10000, 0x10000, 5, "/x");
        map(h, 100, 0x18000, 0x1000, 5, "/y");
        sample(h, 100, 0x11000, PERF_RECORD_MISC_USER);
        sample(h, 100, 0x18500, PERF_RECORD_MISC_USER);
        assertEquals(List.of("/x", "/y"), List.copyOf(h.userDsos()));
        // and a process without maps stays quiet until it gets one
        sample(h, 400, 0x11000, PERF_RECORD_MISC_USER);
        map(h, 400, 0x10000, 0x10000, 5, "/z");
        sample(h, 400, 0x11000, PERF_RECORD_MISC_USER);
        assertEquals(List.of("/x", "/y", "/z"), List.copyOf(h.userDsos()));
    }

    /** The lookup remembers where each process's last sample landed: a gap, a map, the next map. */
    @Test
    void samplesMovingBetweenGapsAndMapsOfSeveralProcessesFindTheirMaps() {
        DsoHits h = new DsoHits(IP_AT, PID_AT);
        for (int pid : new int[] {100, 200}) {
            map(h, pid, 0x10000, 0x1000, 5, "/a" + pid);
            map(h, pid, 0x20000, 0x1000, 5, "/b" + pid);
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
        map(h, 200, 0x18000, 0x1000, 5, "/c");
        sample(h, 200, 0x18000, PERF_RECORD_MISC_USER);
        // a child's own map changes nothing in its parent's
        ByteBuffer fork = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN).putInt(8, 300).putInt(12, 100);
        h.fork(fork, 0);
        map(h, 300, 0x800, 0x1000, 5, "/e");
        sample(h, 100, 0x800, PERF_RECORD_MISC_USER);
        assertEquals(List.of("/b200", "/a100", "/c"), List.copyOf(h.userDsos()));
        sample(h, 300, 0x800, PERF_RECORD_MISC_USER);
        sample(h, 300, 0x10500, PERF_RECORD_MISC_USER); // inherited
        assertEquals(List.of("/b200", "/a100", "/c", "/e"), List.copyOf(h.userDsos()));
    }
}
