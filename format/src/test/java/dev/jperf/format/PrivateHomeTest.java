package dev.jperf.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The suite runs with a home of its own (the root pom's surefire environment): every jperf, perf
 * or bpftool a test starts finds its build-id cache, config and caches there, never in the user's
 * home. .ci/run checks the user's ~/.debug is unchanged after the whole suite.
 */
class PrivateHomeTest {
    @Test
    void testsSeeAPrivateHomeAndBuildIdDir() {
        String home = System.getenv("HOME");
        assertNotNull(home, "HOME");
        assertTrue(home.endsWith("/target/test-home"), "HOME is " + home);
        assertEquals(Path.of(home, ".debug"), BuildIdDir.resolve(null));
        assertEquals(Path.of("/elsewhere"), BuildIdDir.resolve(Path.of("/elsewhere")));
        assertTrue(System.getenv("XDG_CACHE_HOME").startsWith(home), System.getenv("XDG_CACHE_HOME"));
    }
}
