package dev.jperf.nativeshim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MmanTest {
    /** The page size is the system's, as getconf reads it (sysconf), not a constant. */
    @Test
    void pageSizeIsWhatGetconfSays() throws Exception {
        Process p = new ProcessBuilder("getconf", "PAGESIZE").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, p.waitFor(), out);
        assertEquals(Integer.parseInt(out), Mman.pageSize());
    }
}
