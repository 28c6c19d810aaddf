package dev.jperf.format.consumer;

import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.RecordType;
import dev.jperf.format.record.SampleRecord;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * perf's ordered events over typed records (report's session orders flat sample fields the same
 * way, and its order is this one): the kernel's records (samples and side band) are queued by
 * time and released at each FINISHED_ROUND up to the greatest time seen by the round before (a
 * record written in pass n+1 can be older than one of pass n, none later can be older than pass
 * n's maximum); at the end everything is released. Records of equal time keep their file order.
 * Records without a time (0 or -1) and the records perf's tools write (types from
 * PERF_RECORD_USER_TYPE_START on) come at once, ahead of those still queued, as perf processes
 * them while reading; FINISHED_ROUND itself is consumed.
 */
final class TimeOrder implements Iterator<PerfRecord> {
    private static final int INITIAL = 1024;

    private final Iterator<PerfRecord> in;
    private final ArrayDeque<PerfRecord> ready = new ArrayDeque<>();
    private Queued[] queue = new Queued[INITIAL];
    private int n;
    private boolean sorted = true;
    private long lastTime;
    private long maxTime;
    private long nextFlush;
    private boolean ended;

    TimeOrder(Iterator<PerfRecord> fileOrder) {
        this.in = fileOrder;
    }

    @Override
    public boolean hasNext() {
        while (ready.isEmpty() && !ended) {
            pull();
        }
        return !ready.isEmpty();
    }

    @Override
    public PerfRecord next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return ready.poll();
    }

    /** Reads one record in file order and queues or releases it. */
    private void pull() {
        if (!in.hasNext()) {
            flush(-1L);
            ended = true;
            return;
        }
        PerfRecord r = in.next();
        int type = r.type();
        if (type == RecordType.PERF_RECORD_FINISHED_ROUND) {
            flush(nextFlush);
            nextFlush = maxTime;
            return;
        }
        long time = type >= RecordType.PERF_RECORD_USER_TYPE_START ? 0
                : r instanceof SampleRecord s ? s.time() : r.sampleId().time();
        if (time == 0 || time == -1) {
            ready.add(r);
            return;
        }
        if (n == queue.length) {
            queue = Arrays.copyOf(queue, n * 2);
        }
        if (n > 0 && Long.compareUnsigned(time, lastTime) < 0) {
            sorted = false;
        }
        lastTime = time;
        if (Long.compareUnsigned(time, maxTime) > 0) {
            maxTime = time;
        }
        queue[n++] = new Queued(time, r);
    }

    /** Releases the queued records of time &lt;= {@code limit} (unsigned: -1 is all), in order. */
    private void flush(long limit) {
        if (n == 0) {
            return;
        }
        if (!sorted) {
            Arrays.sort(queue, 0, n, BY_TIME); // stable: equal times keep file order
            sorted = true;
        }
        int k = 0;
        while (k < n && Long.compareUnsigned(queue[k].time, limit) <= 0) {
            ready.add(queue[k++].record);
        }
        System.arraycopy(queue, k, queue, 0, n - k);
        Arrays.fill(queue, n - k, n, null);
        n -= k;
        if (n > 0) {
            lastTime = queue[n - 1].time;
        }
    }

    /** A kernel record waiting for its round, with its time. */
    private static final class Queued {
        final long time;
        final PerfRecord record;

        Queued(long time, PerfRecord record) {
            this.time = time;
            this.record = record;
        }
    }

    private static final Comparator<Queued> BY_TIME = new Comparator<>() {
        @Override
        public int compare(Queued a, Queued b) {
            return Long.compareUnsigned(a.time, b.time);
        }
    };
}
