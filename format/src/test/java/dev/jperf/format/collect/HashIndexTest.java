package dev.jperf.format.collect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class HashIndexTest {
    /** An owner as the report's maps are one: keys in its own arrays, found through the index. */
    private static final class Owner {
        final HashIndex index = new HashIndex(1);
        long[] keys = new long[1];
        int[] values = new int[1];
        int[] hashes = new int[1];
        final int hashBits;

        Owner(int hashBits) {
            this.hashBits = hashBits;
        }

        int hash(long k) {
            // few distinct hashes: long probe runs that wrap around the table, equal hashes of different keys
            return (int) (k * 0x9E3779B97F4A7C15L >>> (64 - hashBits)) * 0x10001;
        }

        int slotOf(long k) {
            int slot = index.first(hash(k));
            for (int e; (e = index.entry(slot)) >= 0; slot = index.next(slot)) {
                if (keys[e] == k) {
                    return slot;
                }
            }
            return -slot - 1;
        }

        Integer get(long k) {
            int s = slotOf(k);
            return s < 0 ? null : values[index.entry(s)];
        }

        void put(long k, int v) {
            int s = slotOf(k);
            if (s >= 0) {
                values[index.entry(s)] = v;
                return;
            }
            int n = index.size();
            if (n == keys.length) {
                keys = Arrays.copyOf(keys, 2 * n);
                values = Arrays.copyOf(values, 2 * n);
                hashes = Arrays.copyOf(hashes, 2 * n);
            }
            keys[n] = k;
            values[n] = v;
            hashes[n] = hash(k);
            assertEquals(n, index.put(-s - 1, hashes), "entries are numbered densely");
        }

        void remove(long k) {
            int s = slotOf(k);
            if (s < 0) {
                return;
            }
            int e = index.entry(s);
            int last = index.remove(s, hashes);
            keys[e] = keys[last];
            values[e] = values[last];
            hashes[e] = hashes[last];
        }
    }

    @Test
    void agreesWithHashMapUnderPutsRemovesAndGrowth() {
        Random r = new Random(7);
        for (int round = 0; round < 40; round++) {
            Owner o = new Owner(1 + r.nextInt(12));
            Map<Long, Integer> ref = new HashMap<>();
            int range = 4 + r.nextInt(400);
            for (int op = 0; op < 6000; op++) {
                long k = r.nextInt(range) - range / 2;
                switch (r.nextInt(3)) {
                    case 0 -> {
                        o.put(k, op);
                        ref.put(k, op);
                    }
                    case 1 -> {
                        o.remove(k);
                        ref.remove(k);
                    }
                    default -> assertEquals(ref.get(k), o.get(k), "key " + k);
                }
                assertEquals(ref.size(), o.index.size());
            }
            for (Map.Entry<Long, Integer> e : ref.entrySet()) {
                assertEquals(e.getValue(), o.get(e.getKey()));
            }
            o.index.clear();
            assertEquals(0, o.index.size());
            assertEquals(null, o.get(ref.keySet().stream().findFirst().orElse(0L)));
        }
    }
}
