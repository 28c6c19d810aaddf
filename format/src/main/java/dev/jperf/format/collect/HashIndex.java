package dev.jperf.format.collect;

import java.util.Arrays;

/**
 * The one open-addressing table of jperf's hash maps (report's maps and caches, the events' ids
 * of format's {@code EventRegistry}, the exports' stack trees): an index from 32-bit hashes to entry
 * numbers 0..size-1, the entries (their keys, values and hashes) living in the owner's parallel
 * arrays, so that a key of any shape (a long, four words, a callchain) is compared by its owner
 * with no object per lookup. Linear probing: {@link #first} and {@link #next} walk the slots of a
 * hash until {@link #entry} is -1, where {@link #put} may then place a new entry. Entries stay
 * numbered densely: {@link #remove} renumbers the last one into the hole.
 */
public final class HashIndex {
    private int[] table;
    private int size;

    /** Room for 2048 entries before the first growth (the hot path's caches). */
    public HashIndex() {
        this(2048);
    }

    /** Room for {@code expected} entries (at least 1) before the first growth. */
    public HashIndex(int expected) {
        table = new int[Integer.highestOneBit(Math.max(1, expected) * 2 - 1) * 2];
    }

    /** The entries placed. */
    public int size() {
        return size;
    }

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

    /**
     * Places entry number {@link #size()} in the free {@code slot} (the one a probe ended at);
     * {@code hashes[e]} is entry e's hash, read to grow the table. Returns the entry's number.
     */
    public int put(int slot, int[] hashes) {
        int entry = size;
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
        return entry;
    }

    /** Replaces the entry of a used slot (same hash). */
    public void replace(int slot, int entry) {
        table[slot] = entry + 1;
    }

    /**
     * Frees the slot of entry {@code e} (backward-shift deletion: no tombstones). The last entry
     * takes number {@code e}: returns that entry's old number, whose keys and values the owner then
     * moves to {@code e} (when it is {@code e} itself nothing moves).
     */
    public int remove(int slot, int[] hashes) {
        int mask = table.length - 1;
        int hole = slot;
        int e = table[slot] - 1;
        // move later entries of the run back into the hole when their home allows it
        for (int j = (hole + 1) & mask; table[j] != 0; j = (j + 1) & mask) {
            int home = hashes[table[j] - 1] & mask;
            // entry j may fill the hole unless its home lies cyclically in (hole, j]
            boolean homeBetween = hole <= j ? hole < home && home <= j : hole < home || home <= j;
            if (!homeBetween) {
                table[hole] = table[j];
                hole = j;
            }
        }
        table[hole] = 0;
        int last = --size;
        if (last != e) {
            int s = hashes[last] & mask;
            while (table[s] != last + 1) {
                s = (s + 1) & mask;
            }
            table[s] = e + 1;
        }
        return last;
    }

    public void clear() {
        Arrays.fill(table, 0);
        size = 0;
    }
}
