package dev.jperf.recorder;

import java.util.concurrent.locks.LockSupport;

/**
 * Guards a real-time poll loop against spinning: poll(2) returns at once, forever, once an event
 * hangs up (its task exited: POLLHUP) or errs, and a SCHED_FIFO thread spinning on it starves
 * everything below it on its CPU, other users' processes included. After two wakes in a row that
 * brought no data the loop sleeps instead of polling, as long as the wakes stay empty.
 */
final class Idle {
    private static final long SLEEP_NS = 20_000_000L;
    private int emptyWakes;

    /** Call after each iteration: {@code woken} = poll reported ready fds, {@code progress} = data was read. */
    void after(boolean woken, boolean progress) {
        if (progress || !woken) {
            emptyWakes = 0;
            return;
        }
        if (++emptyWakes >= 2) {
            LockSupport.parkNanos(SLEEP_NS);
        }
    }
}
