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

    @Test
    void countsOneFunctionOfOneBinary() throws Exception {
        assumeTrue(Files.readString(Path.of("/proc/self/status")).matches("(?s).*\\nUid:\\s+0\\s.*"), "needs root for bpf(2)");
        // a function of the shell's own libc would do as well; /bin/true's entry point runs once per exec
        Path sh = Path.of("/bin/true");
        try (RunCounter c = RunCounter.attachUprobe(sh, entryOffset(sh))) {
            long before = c.runs();
            for (int i = 0; i < 3; i++) {
                assertTrue(new ProcessBuilder(sh.toString()).start().waitFor() == 0);
            }
            assertTrue(c.runs() - before >= 3, "runs " + before + " -> " + c.runs());
        }
    }

    /** e_entry of an ELF64 PIE: its file offset equals its address in the first PT_LOAD (vaddr 0, offset 0). */
    static long entryOffset(Path elf) throws Exception {
        byte[] h = Files.readAllBytes(elf);
        return java.nio.ByteBuffer.wrap(h).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(24);
    }
}
