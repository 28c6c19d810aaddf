package dev.jperf.report.session;

/**
 * Regions of a table's arrays (chains, entries) carved out of fixed-size chunks that live as long
 * as the table: growing allocates one more chunk instead of copying everything into an array twice
 * the size (the doubled-away arrays were tens of MB of old-generation garbage on a busy machine's
 * file, never collected below the reader's initial heap). A region never spans two chunks: one
 * longer than a chunk gets a chunk of its own size. A region's position is its chunk number and
 * its offset there in one int ({@link #chunkOf}, {@link #offsetOf}).
 */
public abstract class Arena {
    static final int SHIFT = 16;
    /** Elements per chunk (a region longer than this gets a chunk of its own). */
    public static final int CHUNK = 1 << SHIFT;
    private int chunk = -1;
    private int used = CHUNK;

    /** The position of a new region of {@code n} elements. */
    public final int allocate(int n) {
        if (chunk < 0 || used + n > CHUNK || used == CHUNK) {
            chunk++;
            if (chunk >= 1 << (31 - SHIFT)) {
                throw new IllegalStateException("arena full");
            }
            int size = Math.max(CHUNK, n);
            if (capacity(chunk) < size) {
                provide(chunk, size);
            }
            used = 0;
        }
        int at = chunk << SHIFT | used;
        used = used + n > CHUNK ? CHUNK : used + n;
        return at;
    }

    /** Forgets every region; the chunks stay for the next ones. */
    public void reset() {
        chunk = -1;
        used = CHUNK;
    }

    /** Chunks in use (the last one holds {@link #lastUsed} elements, or all when that is CHUNK). */
    final int chunksUsed() {
        return chunk + 1;
    }

    /** Elements used in the last chunk in use. */
    final int lastUsed() {
        return used;
    }

    public static int chunkOf(int at) {
        return at >>> SHIFT;
    }

    public static int offsetOf(int at) {
        return at & (CHUNK - 1);
    }

    /** Length of chunk {@code c}, 0 when it was never made. */
    abstract int capacity(int c);

    /** Makes chunk {@code c} with {@code size} elements (replacing a shorter one). */
    abstract void provide(int c, int size);
}
