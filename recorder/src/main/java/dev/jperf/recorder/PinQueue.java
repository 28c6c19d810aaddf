package dev.jperf.recorder;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Pinned programs on their way from one pinning thread to the fetcher: a preallocated
 * single-producer single-consumer ring of (program id, fd) pairs. Adding allocates nothing and
 * takes no lock (see {@link BpfCapture} for why that matters).
 */
final class PinQueue {
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int CAPACITY = 4096;

    private final long[] slots = new long[CAPACITY];
    private volatile long head; // next slot to take (consumer)
    private volatile long tail; // next slot to fill (producer)

    /** Returns false when full (the fetcher is {@value #CAPACITY} programs behind). */
    boolean offer(int id, int fd) {
        long t = tail;
        if (t - head >= CAPACITY) {
            return false;
        }
        LONGS.setRelease(slots, (int) (t % CAPACITY), ((long) id << 32) | (fd & 0xffffffffL));
        tail = t + 1;
        return true;
    }

    /** Whether nothing is waiting (any thread may ask). */
    boolean isEmpty() {
        return head == tail;
    }

    /** The oldest pair as {@code id << 32 | fd}, or -1 when empty. */
    long poll() {
        long h = head;
        if (h == tail) {
            return -1;
        }
        long v = (long) LONGS.getAcquire(slots, (int) (h % CAPACITY));
        head = h + 1;
        return v;
    }
}
