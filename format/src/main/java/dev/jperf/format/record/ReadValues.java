package dev.jperf.format.record;

import static dev.jperf.format.header.PerfEventAttr.*;

/**
 * The read_format values of a READ record or PERF_SAMPLE_READ: one entry per counter (one, or the
 * whole group with PERF_FORMAT_GROUP). Absent optional fields are {@code -1}; {@code ids}/{@code lost}
 * are null when not read.
 */
public record ReadValues(long timeEnabled, long timeRunning, long[] values, long[] ids, long[] lost) {
    public ReadValues {
        values = values.clone();
        ids = ids == null ? null : ids.clone();
        lost = lost == null ? null : lost.clone();
    }

    @Override
    public long[] values() {
        return values.clone();
    }

    @Override
    public long[] ids() {
        return ids == null ? null : ids.clone();
    }

    @Override
    public long[] lost() {
        return lost == null ? null : lost.clone();
    }

    /**
     * The read_format values at the input's cursor, which must end by {@code limit} (from the
     * record's header: the trailer of a READ, the end of a SAMPLE); the cursor moves past them.
     */
    static ReadValues decode(RecordInput r, long rf, long limit) {
        return decode(new RecordWords(r), rf, limit);
    }

    /**
     * What read(2) returned from a perf event fd opened with read_format {@code rf}
     * (little-endian, the byte order of the hosts jperf runs on).
     *
     * @throws IllegalArgumentException when {@code buf} is shorter than {@code rf} says
     */
    public static ReadValues fromRead(byte[] buf, long rf) {
        return decode(new ArrayWords(buf), rf, buf.length);
    }

    /** How many bytes read(2) returns for one counter (no PERF_FORMAT_GROUP) of read_format {@code rf}. */
    public static int readSize(long rf) {
        return 8 * (1 + Long.bitCount(rf & (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING
                | PERF_FORMAT_ID | PERF_FORMAT_LOST)));
    }

    /** A sequential reader of u64 words: a record's (positions from its header) or a read(2) buffer's. */
    private interface Words {
        long next(long limit);

        long at();

        RuntimeException bad(String what);
    }

    private record RecordWords(RecordInput r) implements Words {
        @Override
        public long next(long limit) {
            return r.next(limit);
        }

        @Override
        public long at() {
            return r.at();
        }

        @Override
        public RuntimeException bad(String what) {
            return r.bad(what);
        }
    }

    private static final class ArrayWords implements Words {
        private final java.nio.ByteBuffer b;

        ArrayWords(byte[] buf) {
            b = java.nio.ByteBuffer.wrap(buf).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        }

        @Override
        public long next(long limit) {
            if (b.position() + 8 > limit) {
                throw bad("read of " + limit + " bytes is shorter than its read_format");
            }
            return b.getLong();
        }

        @Override
        public long at() {
            return b.position();
        }

        @Override
        public RuntimeException bad(String what) {
            return new IllegalArgumentException(what);
        }
    }

    private static ReadValues decode(Words r, long rf, long limit) {
        long te = -1;
        long tr = -1;
        long[] values;
        long[] ids = null;
        long[] lost = null;
        if ((rf & PERF_FORMAT_GROUP) != 0) {
            long nr = r.next(limit);
            if ((rf & PERF_FORMAT_TOTAL_TIME_ENABLED) != 0) {
                te = r.next(limit);
            }
            if ((rf & PERF_FORMAT_TOTAL_TIME_RUNNING) != 0) {
                tr = r.next(limit);
            }
            int per = 1 + ((rf & PERF_FORMAT_ID) != 0 ? 1 : 0) + ((rf & PERF_FORMAT_LOST) != 0 ? 1 : 0);
            if (nr < 0 || nr > (limit - r.at()) / (8L * per)) {
                throw r.bad("read group nr " + Long.toUnsignedString(nr) + " does not fit");
            }
            values = new long[(int) nr];
            ids = (rf & PERF_FORMAT_ID) != 0 ? new long[(int) nr] : null;
            lost = (rf & PERF_FORMAT_LOST) != 0 ? new long[(int) nr] : null;
            for (int i = 0; i < nr; i++) {
                values[i] = r.next(limit);
                if (ids != null) {
                    ids[i] = r.next(limit);
                }
                if (lost != null) {
                    lost[i] = r.next(limit);
                }
            }
        } else {
            values = new long[] {r.next(limit)};
            if ((rf & PERF_FORMAT_TOTAL_TIME_ENABLED) != 0) {
                te = r.next(limit);
            }
            if ((rf & PERF_FORMAT_TOTAL_TIME_RUNNING) != 0) {
                tr = r.next(limit);
            }
            if ((rf & PERF_FORMAT_ID) != 0) {
                ids = new long[] {r.next(limit)};
            }
            if ((rf & PERF_FORMAT_LOST) != 0) {
                lost = new long[] {r.next(limit)};
            }
        }
        return new ReadValues(te, tr, values, ids, lost);
    }
}
