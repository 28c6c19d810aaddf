package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code jperf list} against {@code perf list} run live on this machine (its kernel's events, its
 * PMUs, its tracefs as this user sees it), line for line; perf's full list up to its metrics.
 */
class ListTest {
    @BeforeAll
    static void perfIsHere() {
        dev.jperf.format.PerfOracle.assumeInstalled();
    }

    @ParameterizedTest(name = "list {0}")
    @ValueSource(strings = {"sw", "hw", "cache", "pmu", "tracepoint", "sdt", "*time*", "cs", "faults", "tsc", "*-faults",
        "sched:*wake*", "*:sched_switch", "TSC"})
    void kindsAndPatternsAsPerf(String arg) throws Exception {
        StatTest.Result p = StatTest.exec("perf", "list", arg);
        Run r = Run.of("list", arg);
        assertEquals(p.rc(), r.rc(), r.err());
        assertEquals(p.out(), r.out());
    }

    /** The whole list: perf's, cut where its metrics (from its compiled-in tables) begin. */
    @Test
    void everythingUpToPerfsMetrics() throws Exception {
        StatTest.Result p = StatTest.exec("perf", "list");
        assertEquals(0, p.rc(), p.err());
        List<String> theirs = new ArrayList<>();
        for (String l : p.out().lines().toList()) {
            if (l.isEmpty()) {
                break;
            }
            theirs.add(l);
        }
        Run r = Run.of("list");
        assertEquals(0, r.rc(), r.err());
        assertTrue(theirs.stream().anyMatch(l -> l.contains("[Software event]")), p.out());
        assertEquals(theirs, r.out().lines().toList());
    }
}
