package dev.jperf.report.session;

import dev.jperf.format.record.PerfRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/**
 * perf's ordered-events queue: kernel records are queued by time and released at each
 * FINISHED_ROUND up to the largest time seen at the previous round (a record written in pass n+1
 * can be older than one of pass n, nothing later can be older than pass n's maximum). Records of
 * equal time keep their file order. Records without a time (0 or -1) are delivered at once, as
 * perf delivers them.
 */
public final class OrderedEvents {
    private record Queued(long time, PerfRecord record) {
    }

    private static final Comparator<Queued> BY_TIME = (a, b) -> Long.compareUnsigned(a.time, b.time);

    private final Consumer<PerfRecord> deliver;
    private List<Queued> queue = new ArrayList<>();
    private long maxTime;
    private long nextFlush;
    private boolean sorted = true;

    public OrderedEvents(Consumer<PerfRecord> deliver) {
        this.deliver = deliver;
    }

    public void queue(PerfRecord r, long time) {
        if (time == 0 || time == -1) {
            deliver.accept(r);
            return;
        }
        if (!queue.isEmpty() && Long.compareUnsigned(time, queue.get(queue.size() - 1).time) < 0) {
            sorted = false;
        }
        queue.add(new Queued(time, r));
        if (Long.compareUnsigned(time, maxTime) > 0) {
            maxTime = time;
        }
    }

    /** PERF_RECORD_FINISHED_ROUND. */
    public void finishedRound() {
        flush(nextFlush);
        nextFlush = maxTime;
    }

    /** End of input: everything, in order. */
    public void finish() {
        flush(-1L);
    }

    private void flush(long limit) {
        if (queue.isEmpty()) {
            return;
        }
        if (!sorted) {
            queue.sort(BY_TIME);
            sorted = true;
        }
        int n = 0;
        for (Queued q : queue) {
            if (Long.compareUnsigned(q.time, limit) > 0) {
                break;
            }
            deliver.accept(q.record);
            n++;
        }
        if (n == queue.size()) {
            queue = new ArrayList<>();
        } else if (n > 0) {
            queue = new ArrayList<>(queue.subList(n, queue.size()));
        }
    }
}
