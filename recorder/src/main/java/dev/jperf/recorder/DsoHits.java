package dev.jperf.recorder;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which DSOs the samples hit, for HEADER_BUILD_ID and the build-id cache (perf marks a DSO when a
 * sample's ip falls in one of its maps). Follows each process's executable maps from the MMAP2,
 * FORK and exec COMM records as they are copied, and looks every sample's ip up.
 */
final class DsoHits {
    private static final int PERF_RECORD_MISC_CPUMODE_MASK = 7;
    private static final int PERF_RECORD_MISC_KERNEL = 1;
    private static final int PERF_RECORD_MISC_USER = 2;
    private static final int PERF_RECORD_MISC_COMM_EXEC = 0x2000;

    private record Map2(long end, String name) {}

    private final Map<Integer, TreeMap<Long, Map2>> maps = new HashMap<>();
    private final Set<String> hit = new LinkedHashSet<>();
    private final int ipOffset;
    private final int pidOffset;
    private boolean kernelHit;
    /** The map the last user sample hit (already counted): most samples land where the one before did. */
    private int lastPid = -1;
    private long lastStart;
    private long lastEnd;

    /** {@code ipOffset}/{@code pidOffset}: where a SAMPLE's ip and pid sit (from the record start), -1 if absent. */
    DsoHits(int ipOffset, int pidOffset) {
        this.ipOffset = ipOffset;
        this.pidOffset = pidOffset;
    }

    void mmap2(ByteBuffer b, int off, int size) {
        if (size < 80) {
            return;
        }
        int pid = b.getInt(off + 8);
        long start = b.getLong(off + 16);
        long len = b.getLong(off + 24);
        int prot = b.getInt(off + 64);
        if ((prot & 4) == 0) {
            return; // not executable: no sample ip lands there
        }
        int n = 0;
        while (72 + n < size && b.get(off + 72 + n) != 0) {
            n++;
        }
        lastPid = -1;
        byte[] name = new byte[n];
        b.get(off + 72, name);
        maps.computeIfAbsent(pid, p -> new TreeMap<>()).put(start, new Map2(start + len, new String(name, StandardCharsets.UTF_8)));
    }

    void fork(ByteBuffer b, int off) {
        int pid = b.getInt(off + 8);
        int ppid = b.getInt(off + 12);
        lastPid = -1;
        TreeMap<Long, Map2> parent = maps.get(ppid);
        if (pid != ppid && parent != null && !maps.containsKey(pid)) {
            maps.put(pid, new TreeMap<>(parent));
        }
    }

    void comm(ByteBuffer b, int off, int misc) {
        if ((misc & PERF_RECORD_MISC_COMM_EXEC) != 0) {
            lastPid = -1;
            maps.remove(b.getInt(off + 8));
        }
    }

    void sample(ByteBuffer b, int off, int size, int misc) {
        int mode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
        if (mode == PERF_RECORD_MISC_KERNEL) {
            kernelHit = true;
            return;
        }
        if (mode != PERF_RECORD_MISC_USER || ipOffset < 0 || pidOffset < 0 || pidOffset + 4 > size) {
            return;
        }
        int pid = b.getInt(off + pidOffset);
        long ip = b.getLong(off + ipOffset);
        if (pid == lastPid && Long.compareUnsigned(ip - lastStart, lastEnd - lastStart) < 0) {
            return;
        }
        TreeMap<Long, Map2> m = maps.get(pid);
        if (m == null) {
            return;
        }
        Map.Entry<Long, Map2> e = m.floorEntry(ip);
        if (e != null && Long.compareUnsigned(ip, e.getValue().end()) < 0) {
            hit.add(e.getValue().name());
            lastPid = pid;
            lastStart = e.getKey();
            lastEnd = e.getValue().end();
        }
    }

    boolean kernelHit() {
        return kernelHit;
    }

    /** Files of user-space DSOs with samples, in first-hit order. */
    Set<String> userDsos() {
        return hit;
    }
}
