package dev.jperf.report.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.UnknownRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * OrderedEvents against perf's ordered-events rule written the plain way (a list stably sorted at
 * each FINISHED_ROUND, released up to the previous round's largest time): rounds of per-CPU
 * ascending runs, equal times, times beyond Long.MAX_VALUE (unsigned), records without a time,
 * queues larger than the initial slots and batches.
 */
class OrderedEventsTest {
    /** One record queued with its time, or delivered at once (time 0 or -1). */
    private record Item(long time, PerfRecord record) {
    }

    /** perf's rule, slowly. */
    private static final class Model {
        final List<PerfRecord> out = new ArrayList<>();
        final List<Item> queued = new ArrayList<>();
        long max;
        long next;

        void add(Item it) {
            if (it.time == 0 || it.time == -1) {
                out.add(it.record);
                return;
            }
            queued.add(it);
            if (Long.compareUnsigned(it.time, max) > 0) {
                max = it.time;
            }
        }

        void round() {
            flush(next);
            next = max;
        }

        void flush(long limit) {
            queued.sort(Comparator.comparing(Item::time, Long::compareUnsigned)); // stable
            int k = 0;
            while (k < queued.size() && Long.compareUnsigned(queued.get(k).time, limit) <= 0) {
                out.add(queued.get(k++).record);
            }
            queued.subList(0, k).clear();
        }
    }

    private static List<PerfRecord> run(List<Object> input, int batchCapacity) {
        List<PerfRecord> got = new ArrayList<>();
        OrderedEvents oe = new OrderedEvents(full -> {
            for (int i = 0; i < full.n; i++) {
                got.add((PerfRecord) full.o[2 * i]);
            }
            Batch next = new Batch(batchCapacity);
            return full.last ? null : next;
        }, new Batch(batchCapacity));
        for (Object x : input) {
            if (x instanceof Item it) {
                oe.queue(it.record, it.time);
            } else {
                oe.finishedRound();
            }
        }
        oe.finish();
        return got;
    }

    /** Rounds of {@code cpus} ascending runs each, times drawn near a moving clock (some equal, some late). */
    private static List<Object> rounds(Random rnd, int rounds, int cpus, int perRun, boolean high) {
        List<Object> in = new ArrayList<>();
        long clock = high ? Long.MAX_VALUE - 1000 : 1000;
        int id = 0;
        for (int r = 0; r < rounds; r++) {
            for (int c = 0; c < cpus; c++) {
                long t = clock - rnd.nextInt(300);
                int len = rnd.nextInt(perRun + 1);
                for (int i = 0; i < len; i++) {
                    t += rnd.nextInt(4); // equal times too
                    long time = rnd.nextInt(50) == 0 ? (rnd.nextBoolean() ? 0 : -1) : t;
                    in.add(new Item(time, new UnknownRecord(id++, 1, 0, 0)));
                }
            }
            clock += 200;
            if (rnd.nextInt(10) != 0) {
                in.add("round");
            }
        }
        return in;
    }

    @Test
    void deliversInPerfsOrder() {
        Random rnd = new Random(15);
        for (int trial = 0; trial < 300; trial++) {
            boolean high = trial % 3 == 0;
            List<Object> in = rounds(rnd, 1 + rnd.nextInt(12), 1 + rnd.nextInt(5), trial < 200 ? 40 : 900, high);
            Model m = new Model();
            for (Object x : in) {
                if (x instanceof Item it) {
                    m.add(it);
                } else {
                    m.round();
                }
            }
            m.flush(-1L);
            List<PerfRecord> got = run(in, 1 + rnd.nextInt(64));
            assertEquals(m.out, got, "trial " + trial);
        }
    }

    @Test
    void emptyAndOnlyRounds() {
        assertTrue(run(List.of(), 4).isEmpty());
        assertTrue(run(List.of("round", "round"), 4).isEmpty());
    }
}
