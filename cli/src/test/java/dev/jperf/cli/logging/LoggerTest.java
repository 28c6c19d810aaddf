package dev.jperf.cli.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LoggerTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final Logger log = new Logger("com.sun.jna.Native", new PrintStream(bytes, true, StandardCharsets.UTF_8));

    private String out() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** JNA's set-up messages (FINE) and INFO lines print nothing, as under jperf's JDK logging before. */
    @Test
    void fineAndInfoPrintNothing() {
        log.log(Level.FINE, "Looking in classpath from {0} for {1}", new Object[] {"a", "b"});
        log.log(Level.FINE, "Found library resource at {0}", "x");
        log.log(Level.INFO, "loaded", new IOException("never shown"));
        log.log(Level.INFO, "plain");
        assertFalse(log.isLoggable(Level.INFO));
        assertEquals("", out());
    }

    @Test
    void warningsAndErrorsAreOneLineOnTheStream() {
        log.warning("Unable to unpack");
        log.log(Level.WARNING, "Skipping {0}", "/tmp/x");
        log.log(Level.SEVERE, "cleaner failed", new IllegalStateException("closed twice"));
        log.log(Level.WARNING, "{0} of {1}", new Object[] {1, 2});
        log.log(Level.WARNING, "no cause message", new NullPointerException());
        assertTrue(log.isLoggable(Level.WARNING));
        assertEquals(String.join(System.lineSeparator(),
                "jperf: warning: com.sun.jna.Native: Unable to unpack",
                "jperf: warning: com.sun.jna.Native: Skipping /tmp/x",
                "jperf: error: com.sun.jna.Native: cleaner failed: closed twice",
                "jperf: warning: com.sun.jna.Native: 1 of 2",
                "jperf: warning: com.sun.jna.Native: no cause message: NullPointerException", ""), out());
    }

    @Test
    void levelsCarryTheJdkValues() {
        assertEquals(java.util.logging.Level.FINE.intValue(), Level.FINE.intValue());
        assertEquals(java.util.logging.Level.INFO.intValue(), Level.INFO.intValue());
        assertEquals(java.util.logging.Level.WARNING.intValue(), Level.WARNING.intValue());
        assertEquals(java.util.logging.Level.SEVERE.intValue(), Level.SEVERE.intValue());
        assertEquals("WARNING", Level.WARNING.toString());
    }
}
