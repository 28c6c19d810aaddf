package dev.jperf.report.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PipelinedSinkTest {
    /** What a sink saw of one sample, copied during the call (the CurrentSample is reused). */
    private record Seen(long ip, long time, long period, long offset, long chainId, int pid, int tid, int cpu,
            int misc, PerfThread thread, String comm, Frame frame, List<Frame> chain, int chainHash,
            boolean filtered, String aggregatedOn) {
        static Seen of(CurrentSample s) {
            List<Frame> chain = new ArrayList<>();
            for (int i = 0; i < s.callchainLength(); i++) {
                chain.add(s.callchain(i));
            }
            return new Seen(s.ip(), s.time(), s.period(), s.offset(), s.chainId(), s.pid(), s.tid(), s.cpu(),
                    s.misc(), s.thread(), s.comm(), s.frame(), chain,
                    s.callchainLength() < 0 ? 0 : s.callchainHash(), s.filtered(), Thread.currentThread().getName());
        }
    }

    @Test
    void theSinkSeesEverySampleAsGivenInOrderOnAnotherThread() {
        PerfThread thread = new PerfThread(7, 8, new MapGroup());
        Frame[] frames = new Frame[200];
        for (int i = 0; i < frames.length; i++) {
            frames[i] = new Frame(0x1000 + i, 0x1000 + i, null, null, '.');
        }
        List<Seen> given = new ArrayList<>();
        List<Seen> seen = new ArrayList<>();
        PipelinedSink p = new PipelinedSink(s -> seen.add(Seen.of(s)));
        CurrentSample c = new CurrentSample();
        // enough samples and frames to fill several batches either way; chains of 0..127 frames or none
        for (int k = 0; k < 20000; k++) {
            c.ip = 0x4000 + k;
            c.time = 1000L * k;
            c.period = k % 13 + 1;
            c.offset = 64L * k;
            c.chainId = k % 3 == 0 ? -1 : k;
            c.pid = 7;
            c.tid = 8;
            c.cpu = k % 4;
            c.misc = 2;
            c.thread = thread;
            c.comm = k % 2 == 0 ? "a" : "b";
            c.frame = frames[k % frames.length];
            int n = k % 5 == 0 ? -1 : k % 128;
            for (int i = 0; i < n; i++) {
                c.chain[i] = frames[(k + i) % frames.length];
            }
            c.chainLength = n;
            c.chainHashed = k % 2 == 0;
            c.chainHash = c.chainHashed ? k : 0;
            c.filtered = k % 7 == 0;
            given.add(Seen.of(c));
            p.sample(c);
        }
        p.finish();
        assertEquals(given.size(), seen.size());
        for (int k = 0; k < given.size(); k++) {
            Seen g = given.get(k);
            Seen s = seen.get(k);
            assertEquals("jperf-aggregate", s.aggregatedOn());
            assertEquals(new Seen(g.ip(), g.time(), g.period(), g.offset(), g.chainId(), g.pid(), g.tid(), g.cpu(),
                    g.misc(), g.thread(), g.comm(), g.frame(), g.chain(), g.chainHash(), g.filtered(),
                    s.aggregatedOn()), s, "sample " + k);
            assertSame(g.frame(), s.frame());
        }
    }

    @Test
    void whatTheSinkThrowsComesBackToTheSession() {
        IllegalStateException boom = new IllegalStateException("boom");
        PipelinedSink p = new PipelinedSink(s -> {
            throw boom;
        });
        CurrentSample c = new CurrentSample();
        c.frame = new Frame(1, 1, null, null, '.');
        p.sample(c);
        IllegalStateException e = assertThrows(IllegalStateException.class, p::finish);
        assertSame(boom, e);
    }

    @Test
    void anAbortedSinkStopsItsThread() throws InterruptedException {
        PipelinedSink p = new PipelinedSink(s -> { });
        CurrentSample c = new CurrentSample();
        c.frame = new Frame(1, 1, null, null, '.');
        for (int k = 0; k < 5000; k++) {
            p.sample(c);
        }
        p.abort();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("jperf-aggregate")) {
                t.join(5000);
                assertTrue(!t.isAlive(), "the aggregating thread ended");
            }
        }
    }
}
