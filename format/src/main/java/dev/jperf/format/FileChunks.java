package dev.jperf.format;

import dev.jperf.format.io.ByteSource;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * The data section of a file read forward with positional reads into chunks. A record never
 * spans two chunks and a chunk is not written again until the reader says nothing refers to its
 * bytes any more ({@link #recycle}), so the bytes of a record stay valid as long as something
 * refers to them (a time-ordering queue), while memory holds only the chunks still referred to:
 * reading through the mapping instead would keep every page of a large file resident. Recycled
 * chunks are reused, so a large file does not churn the heap with chunks that outlive young
 * collections.
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
    private byte[] buf = new byte[0];
    /** File offset of buf[0]. */
    private long base;
    private int limit;
    private final java.util.ArrayDeque<byte[]> spare = new java.util.ArrayDeque<>();
    /** Recent views and their arrays, oldest first. */
    private final java.util.ArrayDeque<Object[]> recent = new java.util.ArrayDeque<>();

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

    /** Makes file bytes {@code [at, at+n)} available in the current chunk; false when the file ends first. */
    boolean ensure(long at, int n) {
        if (at >= base && at + n <= base + limit) {
            return true;
        }
        open();
        int len = (int) Math.max(n, Math.min(CHUNK, fileSize - at));
        byte[] b = len <= CHUNK && !spare.isEmpty() ? spare.pop() : new byte[len];
        int keep = 0;
        if (at >= base && at < base + limit) {
            keep = (int) (base + limit - at);
            System.arraycopy(buf, (int) (at - base), b, 0, keep);
        }
        int got = keep;
        try {
            ByteBuffer bb = ByteBuffer.wrap(b, 0, len);
            bb.position(keep);
            while (bb.hasRemaining()) {
                int r = channel.read(bb, at + bb.position());
                if (r < 0) {
                    break;
                }
            }
            got = bb.position();
        } catch (IOException e) {
            throw new PerfDataException(name + ": read error: " + e.getMessage(), e);
        }
        buf = b;
        base = at;
        limit = got;
        view = ByteSource.wrap(name, b, 0, got).withOrder(order);
        if (recent.size() == RECENT) {
            recent.removeFirst();
        }
        recent.addLast(new Object[] {view, b});
        return n <= got;
    }

    /**
     * Nothing refers to the bytes of {@code chunk} (a {@link #view()} of an earlier chunk) any
     * more: it may be reused. Ignored for the current chunk or one not recent.
     */
    void recycle(ByteSource chunk) {
        if (chunk == view) {
            return;
        }
        for (java.util.Iterator<Object[]> it = recent.iterator(); it.hasNext();) {
            Object[] e = it.next();
            if (e[0] == chunk) {
                it.remove();
                byte[] b = (byte[]) e[1];
                if (b.length == CHUNK && spare.size() < SPARE) {
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
