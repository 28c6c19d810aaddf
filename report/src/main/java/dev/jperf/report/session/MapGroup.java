package dev.jperf.report.session;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The mappings of one address space (perf's struct maps), sorted by start for binary search.
 * Copy-on-write: inserts are rare, lookups happen for every frame of every sample.
 */
public final class MapGroup {
    private volatile Mapping[] maps = new Mapping[0];
    private Mapping last;
    /** Changes with every insert or removal: what was resolved against an older version may differ. */
    private volatile int version;

    /** The mapping containing {@code addr}, or null. */
    public Mapping find(long addr) {
        Mapping l = last;
        if (l != null && l.contains(addr)) {
            return l;
        }
        Mapping[] m = maps;
        int lo = 0;
        int hi = m.length - 1;
        int best = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(m[mid].start(), addr) <= 0) {
                best = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (best >= 0 && m[best].contains(addr)) {
            last = m[best];
            return m[best];
        }
        return null;
    }

    /** Inserts {@code map}, cutting away what it overlaps of older mappings (maps__fixup_overlappings). */
    public synchronized void insertReplacing(Mapping map) {
        List<Mapping> out = new ArrayList<>(maps.length + 2);
        for (Mapping old : maps) {
            boolean overlaps = Long.compareUnsigned(old.start(), map.end()) < 0 && Long.compareUnsigned(map.start(), old.end()) < 0;
            if (!overlaps) {
                out.add(old);
                continue;
            }
            if (Long.compareUnsigned(old.start(), map.start()) < 0) {
                out.add(old.cut(old.start(), map.start()));
            }
            if (Long.compareUnsigned(old.end(), map.end()) > 0) {
                out.add(old.cut(map.end(), old.end()));
            }
        }
        out.add(map);
        publish(out);
    }

    /** Inserts {@code map} as it is (kernel maps: perf's maps__insert). */
    public synchronized void insert(Mapping map) {
        List<Mapping> out = new ArrayList<>(Arrays.asList(maps));
        out.add(map);
        publish(out);
    }

    public synchronized void remove(Mapping map) {
        List<Mapping> out = new ArrayList<>(Arrays.asList(maps));
        out.remove(map);
        last = null;
        publish(out);
    }

    /** A copy for a forked process (maps__clone). */
    public MapGroup copy() {
        MapGroup g = new MapGroup();
        g.maps = maps.clone();
        return g;
    }

    public int version() {
        return version;
    }

    public List<Mapping> mappings() {
        return List.of(maps);
    }

    private void publish(List<Mapping> out) {
        out.sort((a, b) -> Long.compareUnsigned(a.start(), b.start()));
        last = null;
        maps = out.toArray(new Mapping[0]);
        version++;
    }
}
