package dev.jperf.nativeshim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EventFdTest {
    /** A thread asleep in a long poll wakes when another signals, and the fd stays readable. */
    @Test
    void signalWakesAPollInAnotherThread() throws Exception {
        try (EventFd e = new EventFd()) {
            Poll poll = new Poll(new int[] {e.fd()}, Poll.POLLIN);
            assertEquals(0, poll.poll(0), "nothing signalled yet");
            long[] woke = new long[1];
            Thread sleeper = new Thread(() -> {
                long t = System.nanoTime();
                poll.poll(10_000);
                woke[0] = System.nanoTime() - t;
            });
            sleeper.start();
            Thread.sleep(100);
            e.signal();
            sleeper.join(5_000);
            assertTrue(!sleeper.isAlive() && woke[0] < 5_000_000_000L, "poll did not wake: " + woke[0] + " ns");
            assertEquals(1, poll.poll(0));
            assertEquals(Poll.POLLIN, poll.revents(0) & Poll.POLLIN);
        }
    }
}
