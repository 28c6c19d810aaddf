package dev.jperf.recorder.stat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What this VM cannot produce live: a multiplexed counter (a PMU with fewer counters than
 * events). Software events always run, so the scaling and its {@code (xx.xx%)} column are checked
 * here on values, against perf 6.1's rules (perf_counts_values__scale, print_running).
 */
class StatPrinterTest {
    private static final StatEvent CYCLES = new StatEvent("cycles", "", 1, false, true, 0);

    @Test
    void multiplexedCountsAreScaledToTheEnabledTime() {
        CounterValues half = new CounterValues(1000, 2_000_000, 1_000_000);
        assertEquals(new CounterValues(2000, 2_000_000, 1_000_000), half.scaled());
        assertNull(new CounterValues(5, 10, 0).scaled(), "never on the PMU: not counted");
        CounterValues whole = new CounterValues(7, 10, 10);
        assertEquals(whole, whole.scaled());
    }

    @Test
    void runningShareIsPrintedInEachLayout() {
        CounterValues v = new CounterValues(2000, 3_000_000, 1_000_000);
        Row row = StatSession.row(CYCLES, v, 2000, Double.NaN, 1e9, Map.of());
        // %18.0f, unit column (4), the name in 32, an empty metric in 35, then the share
        assertEquals(" ".repeat(14) + "2000" + " ".repeat(6) + "cycles" + " ".repeat(26) + " ".repeat(35) + "  (33.33%)\n",
                print(false, null, row));
        // CSV and JSON divide integers first, as perf does: 100 * run / ena = 33
        assertEquals("2000,,cycles,1000000,33.00,,\n", print(false, ",", row));
        assertEquals("{\"counter-value\" : \"2000.000000\", \"unit\" : \"\", \"event\" : \"cycles\", \"event-runtime\" : "
                + "1000000, \"pcnt-running\" : 33.00, \"metric-value\" : 0.000000, \"metric-unit\" : \"(null)\"}\n",
                print(true, null, row));
    }

    @Test
    void notCountedKeepsItsShareOfTime() {
        Row row = StatSession.row(CYCLES, new CounterValues(0, 3_000_000, 0), 0, Double.NaN, 1e9, Map.of());
        // %18s, the unit column, the name in 25 (perf's not-counted width), an empty metric in 35
        assertEquals("     <not counted>" + " ".repeat(6) + "cycles" + " ".repeat(19) + " ".repeat(35) + "  (0.00%)\n",
                print(false, null, row));
    }

    private static String print(boolean json, String csv, Row row) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        StatPrinter p = new StatPrinter(new PrintStream(b, true, StandardCharsets.UTF_8), json, csv, 4, 1);
        p.row(null, row);
        return b.toString(StandardCharsets.UTF_8);
    }
}
