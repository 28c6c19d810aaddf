package dev.jperf.recorder;

import dev.jperf.nativeshim.RawMemory;
import static dev.jperf.format.record.PerfRecord.*;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which DSOs the samples hit, for HEADER_BUILD_ID and the build-id cache (perf marks a DSO when a
 * sample's ip falls in one of its maps). Follows each process's executable maps from the MMAP2,
 * FORK and exec COMM records as they are copied, and looks every sample's ip up.
 *
 * <p>This runs for every sample while recording, so the lookup allocates nothing: a process's maps
 * are sorted arrays, each process remembers where its last lookup landed (a map, or the gap
 * between two), and a DSO already hit is a flag. Most samples land where the one before of the
 * same process did, also those in code no map covers (JIT code).
 */
final class DsoHits {
    private static final int NO_PID = Integer.MIN_VALUE;

    private final Map<Integer, Maps> maps = new HashMap<>();
    /** DSO names by id, the id of each name, and which ids have been hit. */
    private final List<String> names = new ArrayList<>();
    private final Map<String, Integer> nameIds = new HashMap<>();
    private boolean[] hitIds = new boolean[64];
    private final Set<String> hit = new LinkedHashSet<>();
    private final int ipOffset;
    /** Bytes a sample needs for its ip and pid to be read. */
    private final int sampleBytes;
    private final int pidOffset;
    private boolean kernelHit;
    /** The maps of the last sample's process (null: none known); valid until the maps change. */
    private int lastPid = NO_PID;
    private Maps lastMaps;
    /**
     * The ips of {@code lastPid} that need no lookup: the map its last sample landed in (its DSO
     * is marked) or the gap between maps it fell into, as a start and an unsigned length.
     */
    private long quietFrom;
    private long quietLength;

    /** {@code ipOffset}/{@code pidOffset}: where a SAMPLE's ip and pid sit (from the record start), -1 if absent. */
    DsoHits(int ipOffset, int pidOffset) {
        this.ipOffset = ipOffset;
        this.sampleBytes = Math.max(ipOffset + 8, pidOffset + 4);
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
        lastPid = NO_PID;
        byte[] name = new byte[n];
        b.get(off + 72, name);
        Maps m = maps.get(pid);
        if (m == null) {
            m = new Maps();
            maps.put(pid, m);
        }
        m.put(start, start + len, nameId(new String(name, StandardCharsets.UTF_8)));
    }

    private int nameId(String name) {
        Integer id = nameIds.get(name);
        if (id == null) {
            id = names.size();
            names.add(name);
            nameIds.put(name, id);
            if (id == hitIds.length) {
                hitIds = Arrays.copyOf(hitIds, 2 * id);
            }
        }
        return id;
    }

    void fork(ByteBuffer b, int off) {
        int pid = b.getInt(off + 8);
        int ppid = b.getInt(off + 12);
        lastPid = NO_PID;
        Maps parent = maps.get(ppid);
        if (pid != ppid && parent != null && !maps.containsKey(pid)) {
            maps.put(pid, parent.share());
        }
    }

    void comm(ByteBuffer b, int off, int misc) {
        if ((misc & PERF_RECORD_MISC_COMM_EXEC) != 0) {
            lastPid = NO_PID;
            maps.remove(b.getInt(off + 8));
        }
    }

    /** A SAMPLE of {@code size} bytes at native {@code address} (see {@link RawMemory}). */
    void sample(long address, int size, int misc) {
        int mode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
        if (mode == PERF_RECORD_MISC_KERNEL) {
            kernelHit = true;
            return;
        }
        if (mode != PERF_RECORD_MISC_USER || ipOffset < 0 || pidOffset < 0 || sampleBytes > size) {
            return;
        }
        // the ip precedes the pid (perf-data-format.md §7): both inside the record
        int pid = RawMemory.getInt(address + pidOffset);
        long ip = RawMemory.getLong(address + ipOffset);
        if (pid == lastPid && Long.compareUnsigned(ip - quietFrom, quietLength) < 0) {
            return; // where this process's last sample landed: a DSO already hit, or no map
        }
        lookup(pid, ip);
    }

    private void lookup(int pid, long ip) {
        Maps m;
        if (pid == lastPid) {
            m = lastMaps;
        } else {
            m = maps.get(pid);
            lastPid = pid;
            lastMaps = m;
        }
        if (m == null) {
            quietFrom = 0;
            quietLength = -1L; // no maps, nothing to mark until they change
            return;
        }
        int i = m.find(ip);
        int id = m.idAt(i, ip);
        if (id >= 0 && !hitIds[id]) {
            hitIds[id] = true;
            hit.add(names.get(id));
        }
        // up to the next map's start (maps may overlap: a later start wins from there)
        long next = i + 1 < m.n ? m.starts[i + 1] : -1L;
        if (id >= 0) {
            quietFrom = m.starts[i];
            quietLength = Math.min(m.ends[i], next) - quietFrom;
        } else {
            quietFrom = i >= 0 ? Math.max(m.starts[i], m.ends[i]) : 0;
            quietLength = next - quietFrom;
        }
    }

    boolean kernelHit() {
        return kernelHit;
    }

    /** Files of user-space DSOs with samples, in first-hit order. */
    Set<String> userDsos() {
        return hit;
    }

    /**
     * One process's executable maps by start address (a map at the same start replaces the old
     * one); an ip is in the map with the greatest start at or below it if it is below that map's
     * end. A fork shares its parent's arrays until either changes them (most children exec first).
     */
    private static final class Maps {
        private long[] starts;
        private long[] ends;
        private int[] ids;
        private int n;
        private boolean shared;
        /** The index the last lookup found as the greatest start at or below its ip (-1: none), or -2. */
        private int last = -2;

        Maps() {
            this(new long[8], new long[8], new int[8], 0);
        }

        private Maps(long[] starts, long[] ends, int[] ids, int n) {
            this.starts = starts;
            this.ends = ends;
            this.ids = ids;
            this.n = n;
        }

        Maps share() {
            shared = true;
            Maps child = new Maps(starts, ends, ids, n);
            child.shared = true;
            return child;
        }

        void put(long start, long end, int id) {
            if (shared || n == starts.length) {
                int cap = n == starts.length ? 2 * n : starts.length;
                starts = Arrays.copyOf(starts, cap);
                ends = Arrays.copyOf(ends, cap);
                ids = Arrays.copyOf(ids, cap);
                shared = false;
            }
            last = -2;
            int i = Arrays.binarySearch(starts, 0, n, start);
            if (i < 0) {
                i = -i - 1;
                System.arraycopy(starts, i, starts, i + 1, n - i);
                System.arraycopy(ends, i, ends, i + 1, n - i);
                System.arraycopy(ids, i, ids, i + 1, n - i);
                n++;
            }
            starts[i] = start;
            ends[i] = end;
            ids[i] = id;
        }

        /** Index of the map with the greatest start at or below {@code ip}, or -1. */
        int find(long ip) {
            int i = last;
            // still between the same two starts as last time: the same map (or none)
            if (i == -2 || (i >= 0 && ip < starts[i]) || (i + 1 < n && ip >= starts[i + 1])) {
                i = Arrays.binarySearch(starts, 0, n, ip);
                if (i < 0) {
                    i = -i - 2;
                }
                last = i;
            }
            return i;
        }

        /** The DSO id of map {@code i} if {@code ip} is below its end, else -1. */
        int idAt(int i, long ip) {
            return i >= 0 && Long.compareUnsigned(ip, ends[i]) < 0 ? ids[i] : -1;
        }
    }
}
