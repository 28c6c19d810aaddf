package dev.jperf.format;

import dev.jperf.format.io.ByteSource;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * The data section of a file read forward with positional reads into fresh chunks. A record
 * never spans two chunks and a chunk is never written again, so the bytes of a record stay valid
 * as long as something refers to them (a time-ordering queue), while memory holds only the chunks
 * still referred to: reading through the mapping instead would keep every page of a large file
 * resident.
 */
final class FileChunks {
    static final int CHUNK = 4 << 20;

    private final FileChannel channel;
    private final String name;
    private final ByteOrder order;
    private long fileSize = -1;
    private ByteSource view;
    private byte[] buf = new byte[0];
    /** File offset of buf[0]. */
    private long base;
    private int limit;

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
        byte[] b = new byte[(int) Math.max(n, Math.min(CHUNK, fileSize - at))];
        int keep = 0;
        if (at >= base && at < base + limit) {
            keep = (int) (base + limit - at);
            System.arraycopy(buf, (int) (at - base), b, 0, keep);
        }
        int got = keep;
        try {
            ByteBuffer bb = ByteBuffer.wrap(b);
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
        return n <= got;
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
