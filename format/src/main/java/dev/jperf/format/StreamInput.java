package dev.jperf.format;

import dev.jperf.format.io.ByteSource;
import java.io.IOException;
import java.io.InputStream;

/**
 * A forward-only byte stream (stdin) seen through a growable window: bytes from the last
 * released offset on are kept, so records can be decoded in place like in a mapped file. Memory
 * grows only with bytes actually received.
 */
final class StreamInput {
    private static final int INITIAL = 1 << 20;

    private final String name;
    private final InputStream in;
    private byte[] buf = new byte[INITIAL];
    private ByteSource view;
    /** Stream offset of buf[0]. */
    private long base;
    private int limit;
    /** Bytes before this stream offset may be dropped. */
    private long released;
    private boolean eof;

    StreamInput(String name, InputStream in) {
        this.name = name;
        this.in = in;
        this.view = ByteSource.wrap(name, buf);
    }

    /** The bytes currently held; stream offset {@code o} is at {@code o - base()} in it. */
    ByteSource view() {
        return view;
    }

    long base() {
        return base;
    }

    /** Stream offset one past the last byte received so far. */
    long received() {
        return base + limit;
    }

    void release(long offset) {
        released = Math.max(released, offset);
    }

    /** Makes bytes {@code [at, at+n)} available; false when the stream ends first. */
    boolean ensure(long at, int n) {
        long want = at + n;
        if (want <= base + limit) {
            return true;
        }
        if (eof) {
            return false;
        }
        int keepFrom = (int) Math.max(0, Math.min(released, at) - base);
        if (keepFrom > 0) {
            System.arraycopy(buf, keepFrom, buf, 0, limit - keepFrom);
            limit -= keepFrom;
            base += keepFrom;
        }
        if (want - base > buf.length) {
            byte[] nb = new byte[(int) Math.max(want - base, Math.min((long) buf.length * 2, Integer.MAX_VALUE - 16))];
            System.arraycopy(buf, 0, nb, 0, limit);
            buf = nb;
        }
        view = ByteSource.wrap(name, buf);
        try {
            while (base + limit < want) {
                int r = in.read(buf, limit, buf.length - limit);
                if (r < 0) {
                    eof = true;
                    break;
                }
                limit += r;
            }
        } catch (IOException e) {
            throw new PerfDataException(name + ": read error: " + e.getMessage(), e);
        }
        return base + limit >= want;
    }

    /** Reads and drops {@code n} bytes from stream offset {@code at} (a payload we do not keep). */
    boolean skip(long at, long n) {
        long end = at + n;
        release(at);
        while (base + limit < end) {
            long chunkStart = base + limit;
            int chunk = (int) Math.min(end - chunkStart, buf.length / 2);
            release(chunkStart);
            if (!ensure(chunkStart, chunk)) {
                return false;
            }
        }
        release(end);
        return true;
    }

    /**
     * Copies {@code n} bytes from stream offset {@code at} into a new array that grows with the
     * bytes received (never sized by {@code n} alone); null when the stream ends first.
     */
    byte[] copy(long at, long n) {
        if (n > Integer.MAX_VALUE - 16) {
            skip(at, n);
            return null;
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream((int) Math.min(n, INITIAL));
        long p = at;
        long end = at + n;
        while (p < end) {
            int chunk = (int) Math.min(end - p, buf.length / 2);
            release(p);
            if (!ensure(p, chunk)) {
                return null;
            }
            out.write(buf, (int) (p - base), chunk);
            p += chunk;
        }
        return out.toByteArray();
    }
}
