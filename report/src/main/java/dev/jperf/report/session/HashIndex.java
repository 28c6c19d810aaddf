package dev.jperf.report.session;

import java.util.Arrays;

/**
 * An open-addressing index from 32-bit hashes to entry numbers; the entries, and their hashes,
 * live in the owner's parallel arrays. Linear probing: {@link #first} and {@link #next} walk the
 * slots of a hash until {@link #entry} is -1, where {@link #put} may then place a new entry.
 */
public final class HashIndex {
    private int[] table = new int[1 << 12];
    private int size;

    /** The slot a hash starts probing at. */
    public int first(int hash) {
        return hash & (table.length - 1);
    }

    public int next(int slot) {
        return (slot + 1) & (table.length - 1);
    }

    /** The entry in {@code slot}, or -1 when the slot is free. */
    public int entry(int slot) {
        return table[slot] - 1;
    }

    /** Places {@code entry} in the free {@code slot}; {@code hashes[e]} is entry e's hash (to grow). */
    public void put(int slot, int entry, int[] hashes) {
        table[slot] = entry + 1;
        if (++size * 2 > table.length) {
            table = new int[table.length * 2];
            int mask = table.length - 1;
            for (int e = 0; e < size; e++) {
                int s = hashes[e] & mask;
                while (table[s] != 0) {
                    s = (s + 1) & mask;
                }
                table[s] = e + 1;
            }
        }
    }

    /** Replaces the entry of a used slot (same hash). */
    public void replace(int slot, int entry) {
        table[slot] = entry + 1;
    }

    public void clear() {
        Arrays.fill(table, 0);
        size = 0;
    }
}
