package dev.jperf.report.session;

/** An open-addressing long -> object map: the per-map address caches of the hot path, no boxing. */
final class LongMap<V> {
    private long[] keys = new long[16];
    private Object[] values = new Object[16];
    private boolean[] used = new boolean[16];
    private int size;

    @SuppressWarnings("unchecked")
    V get(long key) {
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (used[i]) {
            if (keys[i] == key) {
                return (V) values[i];
            }
            i = (i + 1) & mask;
        }
        return null;
    }

    void put(long key, V value) {
        if (size * 2 >= keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (used[i]) {
            if (keys[i] == key) {
                values[i] = value;
                return;
            }
            i = (i + 1) & mask;
        }
        used[i] = true;
        keys[i] = key;
        values[i] = value;
        size++;
    }

    /** Removes {@code key}'s entry, if any (backward-shift deletion: no tombstones). */
    void remove(long key) {
        int mask = keys.length - 1;
        int i = mix(key) & mask;
        while (used[i] && keys[i] != key) {
            i = (i + 1) & mask;
        }
        if (!used[i]) {
            return;
        }
        // move later entries of the run back into the hole when their home allows it
        for (int j = (i + 1) & mask; used[j]; j = (j + 1) & mask) {
            int home = mix(keys[j]) & mask;
            // entry j may fill hole i unless its home lies cyclically in (i, j]
            boolean homeBetween = i <= j ? i < home && home <= j : i < home || home <= j;
            if (!homeBetween) {
                keys[i] = keys[j];
                values[i] = values[j];
                i = j;
            }
        }
        used[i] = false;
        values[i] = null;
        size--;
    }

    private void grow() {
        long[] k = keys;
        Object[] v = values;
        boolean[] u = used;
        keys = new long[k.length * 2];
        values = new Object[k.length * 2];
        used = new boolean[k.length * 2];
        size = 0;
        for (int i = 0; i < k.length; i++) {
            if (u[i]) {
                put(k[i], v[i] == null ? null : cast(v[i]));
            }
        }
    }

    @SuppressWarnings("unchecked")
    private V cast(Object o) {
        return (V) o;
    }

    private static int mix(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 29));
    }
}
