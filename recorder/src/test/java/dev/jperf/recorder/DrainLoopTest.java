package dev.jperf.recorder;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DrainLoopTest {
    /** The first rounds wake within milliseconds (their code still interpreted), the rest at the watermark or 100 ms. */
    @Test
    void firstRoundsPollBriefly() {
        for (int round = 0; round < DrainLoop.WARM_UP_ROUNDS; round++) {
            assertEquals(DrainLoop.WARM_UP_POLL_MS, DrainLoop.pollTimeoutMs(round));
        }
        assertEquals(100, DrainLoop.pollTimeoutMs(DrainLoop.WARM_UP_ROUNDS));
        assertEquals(100, DrainLoop.pollTimeoutMs(Integer.MAX_VALUE));
    }
}
