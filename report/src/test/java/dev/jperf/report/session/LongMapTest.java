package dev.jperf.report.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LongMapTest {
    /** Random puts, removes and gets over a small key range (long probe runs, wrap-around) agree with HashMap. */
    @Test
    void agreesWithHashMapUnderPutsAndRemoves() {
        Random r = new Random(42);
        for (int round = 0; round < 20; round++) {
            LongMap<Long> m = new LongMap<>();
            Map<Long, Long> ref = new HashMap<>();
            int range = 8 + r.nextInt(200);
            for (int op = 0; op < 5000; op++) {
                long k = r.nextInt(range) * (r.nextBoolean() ? 1L : 0x100000000L);
                switch (r.nextInt(3)) {
                    case 0 -> {
                        m.put(k, (long) op);
                        ref.put(k, (long) op);
                    }
                    case 1 -> {
                        m.remove(k);
                        ref.remove(k);
                    }
                    default -> assertEquals(ref.get(k), m.get(k), "key " + k);
                }
            }
            for (Map.Entry<Long, Long> e : ref.entrySet()) {
                assertEquals(e.getValue(), m.get(e.getKey()));
            }
        }
    }
}
