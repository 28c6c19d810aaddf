package dev.jperf.report.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.session.Frame;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SampleShapesTest {
    private static final int PENDED = SampleShapes.PENDED;

    private static Frame frame(long ip) {
        return new Frame(ip, ip, null, null, '.');
    }

    /** A sample's shape counted, with its chain's hash as the session gives it. */
    private static int pend(SampleShapes s, Frame frame, Frame[] chain, int n, int comm, int tid, int cpu, long period,
            int version, SampleShapes.Sink sink) {
        return s.pend(frame, chain, n, Frame.hashOf(chain, n), -1, comm, tid, cpu, period, version, sink);
    }

    private static HistEntry entry(Frame f, int order) {
        return new HistEntry("comm", null, f, f.ip(), '.', 0, order);
    }

    /** Pending weight per first entry, as the sink receives it. */
    private static final class Tally implements SampleShapes.Sink {
        final Map<HistEntry, long[]> got = new IdentityHashMap<>();

        @Override
        public void add(Frame[] chain, int n, HistEntry[] entries, int[] at, int m, long period, long count) {
            long[] v = got.computeIfAbsent(entries[0], x -> new long[2]);
            v[0] += period;
            v[1] += count;
        }
    }

    @Test
    void aShapesSamplesArePendingFromItsFirst() {
        Frame a = frame(0x10);
        Frame b = frame(0x20);
        Frame c = frame(0x30);
        HistEntry ea = entry(a, 0);
        Tally t = new Tally();
        SampleShapes s = new SampleShapes(true);
        int slot = pend(s, a, new Frame[] {b, c}, 2, 1, 7, 0, 100, 0, t);
        assertTrue(slot >= 0);
        s.reached(slot, new HistEntry[] {ea, entry(b, 1)}, new int[] {0, 0}, 2, 100, 0, t);
        assertTrue(t.got.isEmpty(), "nothing is added before a flush");
        assertEquals(PENDED, pend(s, a, new Frame[] {b, c}, 2, 1, 7, 0, 50, 0, t));
        assertEquals(PENDED, pend(s, a, new Frame[] {b, c, a}, 2, 1, 7, 0, 25, 0, t), "only the first n frames count");
        // any difference is another shape: frame, chain, length, comm, tid, cpu
        assertNotEquals(PENDED, pend(s, b, new Frame[] {b, c}, 2, 1, 7, 0, 1, 0, t));
        assertNotEquals(PENDED, pend(s, a, new Frame[] {c, b}, 2, 1, 7, 0, 1, 0, t));
        assertNotEquals(PENDED, pend(s, a, new Frame[] {b, c}, 1, 1, 7, 0, 1, 0, t));
        assertNotEquals(PENDED, pend(s, a, new Frame[] {b, c}, 2, 2, 7, 0, 1, 0, t));
        assertNotEquals(PENDED, pend(s, a, new Frame[] {b, c}, 2, 1, 8, 0, 1, 0, t));
        assertNotEquals(PENDED, pend(s, a, new Frame[] {b, c}, 2, 1, 7, 1, 1, 0, t));
        // the same address in another frame object is another shape (frames are shared per mapping)
        assertNotEquals(PENDED, pend(s, frame(0x10), new Frame[] {b, c}, 2, 1, 7, 0, 1, 0, t));
        s.flush(t);
        assertEquals(1, t.got.size(), "only shapes with entries and pending samples reach the sink");
        assertEquals(List.of(175L, 3L), List.of(t.got.get(ea)[0], t.got.get(ea)[1]));
        // flushed shapes are forgotten: the next sample of one is a first sample again
        assertNotEquals(PENDED, pend(s, a, new Frame[] {b, c}, 2, 1, 7, 0, 5, 0, t));
    }

    @Test
    void aChainIdFindsItsShapeWhileTheKeysAgree() {
        Frame a = frame(0x10);
        Frame b = frame(0x20);
        Frame[] chain = {b};
        HistEntry ea = entry(a, 0);
        Tally t = new Tally();
        SampleShapes s = new SampleShapes(true);
        int slot = s.pend(a, chain, 1, Frame.hashOf(chain, 1), 42, 1, 7, 0, 100, 0, t);
        s.reached(slot, new HistEntry[] {ea}, new int[] {0}, 1, 100, 0, t);
        // the id alone names the frame and chain: found without them (another chain cache entry
        // resolving to the same frames has another id and is found by its frames)
        assertEquals(PENDED, s.pend(a, chain, 1, Frame.hashOf(chain, 1), 42, 1, 7, 0, 10, 0, t));
        assertEquals(PENDED, s.pend(a, chain, 1, Frame.hashOf(chain, 1), 43, 1, 7, 0, 1, 0, t));
        assertEquals(PENDED, s.pend(a, chain, 1, Frame.hashOf(chain, 1), 43 + (1 << 16), 1, 7, 0, 1, 0, t));
        // other keys under the same id are another shape
        assertNotEquals(PENDED, s.pend(a, chain, 1, Frame.hashOf(chain, 1), 42, 1, 8, 0, 1, 0, t));
        s.flush(t);
        assertEquals(List.of(112L, 4L), List.of(t.got.get(ea)[0], t.got.get(ea)[1]));
        // a flush forgets the ids with the shapes
        assertNotEquals(PENDED, s.pend(a, chain, 1, Frame.hashOf(chain, 1), 42, 1, 7, 0, 5, 0, t));
    }

    @Test
    void aChangedPathLooksTheShapeUpAgainAndMovesItOnlyWhenItsEntriesChanged() {
        Frame a = frame(0x10);
        HistEntry first = entry(a, 0);
        HistEntry second = entry(a, 1);
        Tally t = new Tally();
        SampleShapes s = new SampleShapes(true);
        int slot = pend(s, a, new Frame[0], 0, -2, -1, -1, 10, 3, t);
        s.reached(slot, new HistEntry[] {first}, new int[] {0}, 1, 10, 3, t);
        assertEquals(PENDED, pend(s, a, new Frame[0], 0, -2, -1, -1, 20, 3, t));
        // the search tree moved on, no path to the shape's entries changed: still pending
        assertEquals(PENDED, pend(s, a, new Frame[0], 0, -2, -1, -1, 0, 4, t));
        // a path to its entry changed after that: looked up again, the same entry: still pending
        first.pathStamp = 5;
        assertEquals(slot, pend(s, a, new Frame[0], 0, -2, -1, -1, 40, 5, t));
        s.reached(slot, new HistEntry[] {first}, new int[] {0}, 1, 40, 5, t);
        assertTrue(t.got.isEmpty());
        assertEquals(PENDED, pend(s, a, new Frame[0], 0, -2, -1, -1, 1, 5, t));
        // again, now another entry: what was pending goes to the first one at once
        first.pathStamp = 6;
        assertEquals(slot, pend(s, a, new Frame[0], 0, -2, -1, -1, 80, 6, t));
        s.reached(slot, new HistEntry[] {second}, new int[] {0}, 1, 80, 6, t);
        assertEquals(List.of(71L, 5L), List.of(t.got.get(first)[0], t.got.get(first)[1]));
        assertEquals(PENDED, pend(s, a, new Frame[0], 0, -2, -1, -1, 160, 6, t));
        s.flush(t);
        assertEquals(List.of(240L, 2L), List.of(t.got.get(second)[0], t.got.get(second)[1]));
        assertEquals(71L, t.got.get(first)[0]);
    }

    @Test
    void aFullTableFlushesAndStartsOverWithoutLosingWeight() {
        Frame[] f = new Frame[40];
        for (int i = 0; i < f.length; i++) {
            f[i] = frame(i + 1);
        }
        Tally t = new Tally();
        SampleShapes s = new SampleShapes(8, true);
        long expected = 0;
        long samples = 0;
        long repeats = 0;
        for (int round = 0; round < 5; round++) {
            for (int k = 0; k < 2 * f.length; k++) {
                int i = k / 2;
                int slot = pend(s, f[i], new Frame[] {f[(i + 1) % f.length]}, 1, -2, -1, -1, i + 1, 0, t);
                expected += i + 1;
                samples++;
                if (slot == PENDED) {
                    repeats++;
                } else {
                    s.reached(slot, new HistEntry[] {entry(f[i], i)}, new int[] {0}, 1, i + 1, 0, t);
                }
            }
        }
        s.flush(t);
        assertEquals(5 * f.length, repeats, "every second sample repeats the one before it");
        long period = 0;
        long count = 0;
        for (long[] v : t.got.values()) {
            period += v[0];
            count += v[1];
        }
        assertEquals(expected, period);
        assertEquals(samples, count);
    }
}
