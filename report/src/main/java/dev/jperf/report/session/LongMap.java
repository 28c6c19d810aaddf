package dev.jperf.report.session;

import dev.jperf.format.collect.HashIndex;
import java.util.Arrays;

/** A long -> object map on a {@link HashIndex}: threads by tid, the per-mapping frame caches; no boxing. */
final class LongMap<V> {
    private final HashIndex index;
    private long[] keys;
    private Object[] values;
    private int[] hashes;

    LongMap() {
        this(8);
    }

    /** Room for {@code expected} entries before the first growth. */
    LongMap(int expected) {
        index = new HashIndex(expected);
        keys = new long[expected];
        values = new Object[expected];
        hashes = new int[expected];
    }

    int size() {
        return index.size();
    }

    @SuppressWarnings("unchecked")
    V get(long key) {
        int h = mix(key);
        for (int slot = index.first(h), e; (e = index.entry(slot)) >= 0; slot = index.next(slot)) {
            if (keys[e] == key) {
                return (V) values[e];
            }
        }
        return null;
    }

    void put(long key, V value) {
        int h = mix(key);
        int slot = index.first(h);
        for (int e; (e = index.entry(slot)) >= 0; slot = index.next(slot)) {
            if (keys[e] == key) {
                values[e] = value;
                return;
            }
        }
        int n = index.size();
        if (n == keys.length) {
            int cap = Math.max(1, n) * 2;
            keys = Arrays.copyOf(keys, cap);
            values = Arrays.copyOf(values, cap);
            hashes = Arrays.copyOf(hashes, cap);
        }
        keys[n] = key;
        values[n] = value;
        hashes[n] = h;
        index.put(slot, hashes);
    }

    /** Removes {@code key}'s entry, if any. */
    void remove(long key) {
        int h = mix(key);
        for (int slot = index.first(h), e; (e = index.entry(slot)) >= 0; slot = index.next(slot)) {
            if (keys[e] == key) {
                int last = index.remove(slot, hashes);
                keys[e] = keys[last];
                values[e] = values[last];
                hashes[e] = hashes[last];
                values[last] = null;
                return;
            }
        }
    }

    /** The values, in no particular order. */
    @SuppressWarnings("unchecked")
    java.util.List<V> values() {
        java.util.List<V> out = new java.util.ArrayList<>(size());
        for (int e = 0; e < size(); e++) {
            out.add((V) values[e]);
        }
        return out;
    }

    private static int mix(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 29));
    }
}
