package dev.jperf.bpf;

import java.util.ArrayList;
import java.util.List;

/**
 * libbpf's hashmap as bpftool uses it for tables keyed by an object id (hash_fn_for_key_as_id,
 * hashmap__append, hashmap__for_each_key_entry): entries prepended to their bucket and the
 * buckets rebuilt as the map grows, so the values of one key come out in bpftool's order.
 */
final class LibbpfHashmap<V> {
    /** One hashmap_entry. */
    private static final class Entry<V> {
        final long key;
        final V value;
        Entry<V> next;

        Entry(long key, V value) {
            this.key = key;
            this.value = value;
        }
    }

    private Entry<V>[] buckets = newBuckets(0);
    private int capBits;
    private int size;

    @SuppressWarnings("unchecked")
    private static <V> Entry<V>[] newBuckets(int n) {
        return (Entry<V>[]) new Entry<?>[n];
    }

    /** hash_bits: the upper {@code bits} bits of the key times the 64-bit golden ratio. */
    private static int hashBits(long h, int bits) {
        return bits == 0 ? 0 : (int) ((h * 0x9E3779B97F4A7C15L) >>> (64 - bits));
    }

    /** hashmap__append. */
    void append(long key, V value) {
        if (buckets.length == 0 || (size + 1) * 4 / 3 > buckets.length) {
            grow();
        }
        Entry<V> e = new Entry<>(key, value);
        int h = hashBits(key, capBits);
        e.next = buckets[h];
        buckets[h] = e;
        size++;
    }

    /** hashmap_grow: every entry, bucket by bucket and head first, prepended to its new bucket. */
    private void grow() {
        int bits = Math.max(capBits + 1, 2);
        Entry<V>[] next = newBuckets(1 << bits);
        for (Entry<V> head : buckets) {
            Entry<V> cur = head;
            while (cur != null) {
                Entry<V> tmp = cur.next;
                int h = hashBits(cur.key, bits);
                cur.next = next[h];
                next[h] = cur;
                cur = tmp;
            }
        }
        buckets = next;
        capBits = bits;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** hashmap__for_each_key_entry: the values of {@code key}, in bpftool's order. */
    List<V> values(long key) {
        List<V> out = new ArrayList<>();
        if (buckets.length == 0) {
            return out;
        }
        for (Entry<V> cur = buckets[hashBits(key, capBits)]; cur != null; cur = cur.next) {
            if (cur.key == key) {
                out.add(cur.value);
            }
        }
        return out;
    }
}
