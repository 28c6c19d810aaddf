package dev.jperf.format;

import dev.jperf.format.io.ByteSource;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * The data section of a file read forward with positional reads into chunks. A record never
 * spans two chunks and a chunk is not written again until the reader says nothing refers to its
 * bytes any more ({@link #recycle}), so the bytes of a record stay valid as long as something
 * refers to them (a time-ordering queue), while memory holds only the chunks still referred to:
 * reading through the mapping instead would keep every page of a large file resident. Full-size
 * chunks live outside the heap and are reused once recycled, so a large file neither churns the
 * heap nor has the collector copy chunks that outlive a young collection (and the channel reads
 * straight into them, without the copy a heap buffer costs).
 */
final class FileChunks {
    static final int CHUNK = 4 << 20;
    /** Recycled chunks kept for reuse. */
    private static final int SPARE = 8;
    /** Chunks handed out recently that may still come back (older ones are left to the collector). */
    private static final int RECENT = 32;

    private final FileChannel channel;
    private final String name;
    private final ByteOrder order;
    private long fileSize = -1;
    private ByteSource view;
    private ByteBuffer buf = ByteBuffer.allocate(0);
    /** File offset of buf[0]. */
    private long base;
    private int limit;
    /** Set by {@link #recycling} or the first {@link #recycle}: the reader hands chunks back, so they may live off-heap. */
    private boolean recycling;
    private final ArrayDeque<ByteBuffer> spare = new ArrayDeque<>();
    /** Recent views and their buffers, oldest first. */
    private final ArrayDeque<Chunk> recent = new ArrayDeque<>();

    /** A chunk handed out: its view and the buffer behind it. */
    private record Chunk(ByteSource view, ByteBuffer buffer) {
    }

    /** Reads through {@code channel} (owned by the caller, positional reads only). */
    FileChunks(FileChannel channel, String name, ByteOrder order) {
        this.channel = channel;
        this.name = name;
        this.order = order;
    }

    /** The current chunk; file offset {@code o} is at {@code o - base()} in it. */
    ByteSource view() {
        return view;
    }

    long base() {
        return base;
    }

    /** Whether file bytes {@code [at, at+n)} are in the current chunk (small: inlined where {@link #ensure} is not). */
    boolean holds(long at, int n) {
        return at >= base && at + n <= base + limit;
    }

    /** Makes file bytes {@code [at, at+n)} available in the current chunk; false when the file ends first. */
    boolean ensure(long at, int n) {
        if (holds(at, n)) {
            return true;
        }
        open();
        int len = (int) Math.max(n, Math.min(CHUNK, fileSize - at));
        // off-heap only once the reader recycles: without that, native memory would wait for
        // the collector to free each chunk. A short last chunk takes a recycled one when there is
        // one (a fresh heap array of up to 4 MiB went straight into the old generation)
        boolean reuse = recycling && (len == CHUNK || len < CHUNK && !spare.isEmpty());
        ByteBuffer b = !reuse ? ByteBuffer.allocate(len) : spare.isEmpty() ? ByteBuffer.allocateDirect(CHUNK) : spare.pop();
        b.clear().limit(len);
        int keep = 0;
        if (at >= base && at < base + limit) {
            keep = (int) (base + limit - at);
            b.put(0, buf, (int) (at - base), keep);
        }
        int got = keep;
        try {
            b.position(keep);
            while (b.hasRemaining()) {
                int r = channel.read(b, at + b.position());
                if (r < 0) {
                    break;
                }
            }
            got = b.position();
        } catch (IOException e) {
            throw new PerfDataException(name + ": read error: " + e.getMessage(), e);
        }
        buf = b;
        base = at;
        limit = got;
        view = ByteSource.wrap(name, b.limit(got)).withOrder(order);
        if (recent.size() == RECENT) {
            recent.removeFirst();
        }
        recent.addLast(new Chunk(view, b));
        return n <= got;
    }

    /**
     * The reader will hand chunks back ({@link #recycle}): full-size chunks live off-heap from the
     * first, so none is a 4 MiB heap array allocated straight into the old generation and never
     * reused.
     */
    void recycling() {
        recycling = true;
    }

    /**
     * Nothing refers to the bytes of {@code chunk} (a {@link #view()} of an earlier chunk) any
     * more: it may be reused. Ignored for the current chunk or one not recent.
     */
    void recycle(ByteSource chunk) {
        recycling = true;
        if (chunk == view) {
            return;
        }
        for (Iterator<Chunk> it = recent.iterator(); it.hasNext();) {
            Chunk e = it.next();
            if (e.view() == chunk) {
                it.remove();
                ByteBuffer b = e.buffer();
                if (b.isDirect() && b.capacity() == CHUNK && spare.size() < SPARE) {
                    spare.push(b);
                }
                return;
            }
        }
    }

    private void open() {
        if (fileSize >= 0) {
            return;
        }
        try {
            fileSize = channel.size();
        } catch (IOException e) {
            throw new PerfDataException(name + ": cannot read: " + e.getMessage(), e);
        }
    }
}
