package dev.jperf.report.aggregate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.session.Frame;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SampleShapesTest {
    private static Frame frame(long ip) {
        return new Frame(ip, ip, null, null, '.');
    }

    /** Pending weight per shape (described as a string), as the sink receives it. */
    private static final class Tally implements SampleShapes.Sink {
        final Map<String, long[]> got = new HashMap<>();

        @Override
        public void add(Frame frame, Frame[] chain, int n, int comm, int tid, int cpu, long period, long count) {
            StringBuilder k = new StringBuilder(Long.toHexString(frame.ip()));
            for (int i = 0; i < n; i++) {
                k.append('/').append(Long.toHexString(chain[i].ip()));
            }
            k.append(' ').append(comm).append(' ').append(tid).append(' ').append(cpu);
            long[] v = got.computeIfAbsent(k.toString(), x -> new long[2]);
            v[0] += period;
            v[1] += count;
        }
    }

    @Test
    void repeatsArePendingAndFirstSamplesAreNot() {
        Frame a = frame(0x10);
        Frame b = frame(0x20);
        Frame c = frame(0x30);
        Tally t = new Tally();
        SampleShapes s = new SampleShapes();
        assertFalse(s.pend(a, new Frame[] {b, c}, 2, 1, 7, 0, 100, t));
        assertTrue(s.pend(a, new Frame[] {b, c}, 2, 1, 7, 0, 50, t));
        assertTrue(s.pend(a, new Frame[] {b, c, a}, 2, 1, 7, 0, 25, t), "only the first n frames count");
        // any difference is another shape: frame, chain, length, comm, tid, cpu
        assertFalse(s.pend(b, new Frame[] {b, c}, 2, 1, 7, 0, 1, t));
        assertFalse(s.pend(a, new Frame[] {c, b}, 2, 1, 7, 0, 1, t));
        assertFalse(s.pend(a, new Frame[] {b, c}, 1, 1, 7, 0, 1, t));
        assertFalse(s.pend(a, new Frame[] {b, c}, 2, 2, 7, 0, 1, t));
        assertFalse(s.pend(a, new Frame[] {b, c}, 2, 1, 8, 0, 1, t));
        assertFalse(s.pend(a, new Frame[] {b, c}, 2, 1, 7, 1, 1, t));
        // the same address in another frame object is another shape (frames are shared per mapping)
        assertFalse(s.pend(frame(0x10), new Frame[] {b, c}, 2, 1, 7, 0, 1, t));
        s.flush(t);
        assertEquals(1, t.got.size(), "only shapes with pending samples are flushed");
        assertEquals(List.of(75L, 2L), List.of(t.got.get("10/20/30 1 7 0")[0], t.got.get("10/20/30 1 7 0")[1]));
        // flushed shapes are forgotten: the next sample of one is a first sample again
        assertFalse(s.pend(a, new Frame[] {b, c}, 2, 1, 7, 0, 5, t));
    }

    @Test
    void aFullTableFlushesAndStartsOverWithoutLosingWeight() {
        Frame[] f = new Frame[40];
        for (int i = 0; i < f.length; i++) {
            f[i] = frame(i + 1);
        }
        Tally t = new Tally();
        SampleShapes s = new SampleShapes(8);
        long expected = 0;
        long pendingCount = 0;
        for (int round = 0; round < 5; round++) {
            for (int k = 0; k < 2 * f.length; k++) {
                int i = k / 2;
                if (s.pend(f[i], new Frame[] {f[(i + 1) % f.length]}, 1, -2, -1, -1, i + 1, t)) {
                    expected += i + 1;
                    pendingCount++;
                }
            }
        }
        s.flush(t);
        assertEquals(5 * f.length, pendingCount, "every second sample repeats the one before it");
        long period = 0;
        long count = 0;
        for (long[] v : t.got.values()) {
            period += v[0];
            count += v[1];
        }
        assertEquals(expected, period);
        assertEquals(pendingCount, count);
    }
}
