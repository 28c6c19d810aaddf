package dev.jperf.samples;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RunCounterTest {
    @Test
    void countsSyscalls() throws Exception {
        assumeTrue(Files.readString(Path.of("/proc/self/status")).matches("(?s).*\\nUid:\\s+0\\s.*"), "needs root for bpf(2)");
        try (RunCounter c = RunCounter.attach()) {
            long before = c.runs();
            for (int i = 0; i < 1000; i++) {
                Files.exists(Path.of("/proc/self/nonexistent" + i));
            }
            long after = c.runs();
            assertTrue(after - before >= 1000, "runs " + before + " -> " + after);
            assertTrue(c.id() > 0);
        }
    }
}
