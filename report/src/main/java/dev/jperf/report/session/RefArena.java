package dev.jperf.report.session;

import java.util.Arrays;
import java.util.function.IntFunction;

/** An {@link Arena} of references, whose {@link #reset} also drops them (the collector's view). */
public final class RefArena<T> extends Arena {
    private final IntFunction<T[]> newArray;
    private T[][] chunks;

    /** {@code newArray} makes the chunks (T[]::new), so that they copy to and from T[] unchecked. */
    @SuppressWarnings("unchecked")
    public RefArena(IntFunction<T[]> newArray) {
        this.newArray = newArray;
        this.chunks = (T[][]) new Object[4][];
    }

    /** The chunk holding the region at {@code at} (from {@link #offsetOf}). */
    public T[] chunk(int at) {
        return chunks[chunkOf(at)];
    }

    @Override
    public void reset() {
        int n = chunksUsed();
        for (int c = 0; c < n; c++) {
            Arrays.fill(chunks[c], 0, c == n - 1 && lastUsed() < CHUNK ? lastUsed() : chunks[c].length, null);
        }
        super.reset();
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
        chunks[c] = newArray.apply(size);
    }
}
