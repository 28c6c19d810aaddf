package dev.jperf.format.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Integer sysctls read whole (report's kallsyms restriction, record's rate and paranoia, bpftool's caps depend on them), against cat. */
class SysctlTest {
    @Test
    void multiDigitSysctlReadWhole() throws Exception {
        Path rate = Path.of("/proc/sys/kernel/perf_event_max_sample_rate");
        assumeTrue(Files.isReadable(rate), "no " + rate);
        Process p = new ProcessBuilder("cat", rate.toString()).start();
        String cat = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        assertEquals(0, p.waitFor());
        assertEquals(Integer.parseInt(cat), ProcFs.sysctlInt(rate));
    }
}
