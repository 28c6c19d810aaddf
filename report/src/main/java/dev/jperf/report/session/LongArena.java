package dev.jperf.report.session;

import java.util.Arrays;

/** An {@link Arena} of longs. */
public final class LongArena extends Arena {
    private long[][] chunks = new long[4][];

    /** The chunk holding the region at {@code at} (from {@link #offsetOf}). */
    public long[] chunk(int at) {
        return chunks[chunkOf(at)];
    }

    @Override
    int capacity(int c) {
        return c >= 0 && c < chunks.length && chunks[c] != null ? chunks[c].length : 0;
    }

    @Override
    void provide(int c, int size) {
        if (c >= chunks.length) {
            chunks = Arrays.copyOf(chunks, Math.max(2 * chunks.length, c + 1));
        }
        chunks[c] = new long[size];
    }
}
