package dev.jperf.recorder;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * A set of BPF program ids for several threads: preallocated open addressing with CAS, so adding
 * allocates nothing and takes no lock. Ids are never removed. When it fills up (tens of thousands
 * of programs in one recording) {@link #add} answers true: a program is then pinned twice at worst,
 * which the capture tolerates.
 */
final class IdSet {
    private static final int CAPACITY = 1 << 16;
    private static final int MAX_PROBES = 64;

    private final AtomicIntegerArray table = new AtomicIntegerArray(CAPACITY);

    /** Adds {@code id} (non-zero); true if it was not there before. */
    boolean add(int id) {
        int h = (id * 0x9E3779B9) >>> 16;
        for (int i = 0; i < MAX_PROBES; i++) {
            int slot = (h + i) & (CAPACITY - 1);
            int v = table.get(slot);
            if (v == id) {
                return false;
            }
            if (v == 0 && table.compareAndSet(slot, 0, id)) {
                return true;
            }
            if (table.get(slot) == id) {
                return false;
            }
        }
        return true;
    }

    boolean contains(int id) {
        int h = (id * 0x9E3779B9) >>> 16;
        for (int i = 0; i < MAX_PROBES; i++) {
            int v = table.get((h + i) & (CAPACITY - 1));
            if (v == id) {
                return true;
            }
            if (v == 0) {
                return false;
            }
        }
        return false;
    }
}
