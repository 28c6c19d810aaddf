package dev.jperf.recorder.stat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import dev.jperf.recorder.EventSpec;
import org.junit.jupiter.api.Test;

/**
 * What this VM cannot produce live: a multiplexed counter (a PMU with fewer counters than
 * events). Software events always run, so the scaling and its {@code (xx.xx%)} column are checked
 * here on values, against perf 6.1's rules (perf_counts_values__scale, print_running).
 */
class StatPrinterTest {
    private static final StatEvent CYCLES = StatEvent.of(EventSpec.parse("cycles"), true);

    @Test
    void multiplexedCountsAreScaledToTheEnabledTime() {
        CounterValues half = new CounterValues(1000, 2_000_000, 1_000_000);
        assertEquals(new CounterValues(2000, 2_000_000, 1_000_000), half.scaled(true));
        assertNull(new CounterValues(5, 10, 0).scaled(true), "never on the PMU: not counted");
        CounterValues whole = new CounterValues(7, 10, 10);
        assertEquals(whole, whole.scaled(true));
        assertEquals(half, half.scaled(false), "--no-scale: the count as read");
        assertNull(new CounterValues(5, 10, 0).scaled(false), "--no-scale, never on the PMU: not counted");
    }

    @Test
    void runningShareIsPrintedInEachLayout() {
        CounterValues v = new CounterValues(2000, 3_000_000, 1_000_000);
        Row row = StatSession.row(CYCLES, v, 2000, Double.NaN, new ShadowStats(1e9));
        // %18.0f, unit column (4), the name in 32, an empty metric in 35, then the share
        assertEquals(" ".repeat(14) + "2000" + " ".repeat(6) + "cycles" + " ".repeat(26) + " ".repeat(35) + "  (33.33%)\n",
                print(false, null, row));
        // CSV and JSON divide integers first, as perf does: 100 * run / ena = 33; cycles without a
        // clock to divide by: no GHz, whose unit perf spells "Ghz" then
        assertEquals("2000,,cycles,1000000,33.00,,\n", print(false, ",", row));
        assertEquals("{\"counter-value\" : \"2000.000000\", \"unit\" : \"\", \"event\" : \"cycles\", \"event-runtime\" : "
                + "1000000, \"pcnt-running\" : 33.00, \"metric-value\" : 0.000000, \"metric-unit\" : \"Ghz\"}\n",
                print(true, null, row));
    }

    /**
     * perf 6.1 prints names into its JSON unescaped (fprintf "%s"); its parser takes no event name
     * that would need an escape (checked below), so escaping changes none of its lines and keeps a
     * name with a quote or backslash (a BPF program's row, a name from elsewhere) JSON.
     */
    @Test
    void jsonNamesAreEscapedAndOrdinaryNamesAreAsPerfPrintsThem() {
        CounterValues v = new CounterValues(2000, 3_000_000, 3_000_000);
        Row hostile = new Row("a\"b\\c\u0001", "u\"", false, true, v, 2000, Double.NaN, Metric.NONE);
        assertEquals("{\"counter-value\" : \"2000.000000\", \"unit\" : \"u\\\"\", \"event\" : \"a\\\"b\\\\c\\u0001\", "
                + "\"event-runtime\" : 3000000, \"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, \"metric-unit\" : \"(null)\"}\n",
                print(true, null, hostile));
        Row plain = new Row("cpu-clock:u", "msec", true, true, v, 2000, Double.NaN, Metric.NONE);
        assertEquals("{\"counter-value\" : \"2000.000000\", \"unit\" : \"msec\", \"event\" : \"cpu-clock:u\", "
                + "\"event-runtime\" : 3000000, \"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, \"metric-unit\" : \"(null)\"}\n",
                print(true, null, plain));
    }

    /** The other half of the claim above, asked of perf: a name with a quote or backslash is a syntax error. */
    @Test
    void perfTakesNoEventNameThatNeedsAnEscape() throws Exception {
        for (String name : new String[] {"a\"b", "a\\b", "'a\"b'"}) {
            Process p;
            try {
                p = new ProcessBuilder("perf", "stat", "-j", "-e", "cpu-clock/name=" + name + "/", "true")
                        .redirectErrorStream(true).start();
            } catch (java.io.IOException e) {
                throw new org.opentest4j.TestAbortedException("no perf: " + e.getMessage());
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
            assertTrue(out.contains("event syntax error") && p.exitValue() != 0, name + ": " + out);
        }
    }

    @Test
    void notCountedKeepsItsShareOfTime() {
        Row row = StatSession.row(CYCLES, new CounterValues(0, 3_000_000, 0), 0, Double.NaN, new ShadowStats(1e9));
        // %18s, the unit column, the name in 25 (perf's not-counted width), an empty metric in 35
        assertEquals("     <not counted>" + " ".repeat(6) + "cycles" + " ".repeat(19) + " ".repeat(35) + "  (0.00%)\n",
                print(false, null, row));
    }

    /** perf's hardware metrics, which need a PMU this VM lacks: from counts, in perf's formats. */
    @Test
    void hardwareMetricsAsPerfDerivesThem() {
        ShadowStats shadow = new ShadowStats(1e9);
        StatEvent clock = StatEvent.of(EventSpec.parse("task-clock"), true);
        StatEvent insns = StatEvent.of(EventSpec.parse("instructions"), true);
        StatEvent branches = StatEvent.of(EventSpec.parse("branches"), true);
        StatEvent misses = StatEvent.of(EventSpec.parse("branch-misses"), true);
        StatEvent refs = StatEvent.of(EventSpec.parse("cache-references"), true);
        StatEvent cacheMisses = StatEvent.of(EventSpec.parse("cache-misses"), true);
        StatEvent userCycles = StatEvent.of(EventSpec.parse("cycles:u"), true);
        shadow.update(clock, 500_000_000);
        shadow.update(CYCLES, 1_500_000_000);
        shadow.update(branches, 2_000_000);
        shadow.update(refs, 1_000);
        // print_metric_std: " # ", the number in its format, a blank, the unit filling 35 columns
        assertEquals(" #    3.000 GHz                    ", metric(shadow, CYCLES, 1_500_000_000));
        assertEquals(" #    2.00  insn per cycle         ", metric(shadow, insns, 3_000_000_000.0));
        assertEquals(" #    2.50% of all branches        ", metric(shadow, misses, 50_000));
        assertEquals(" #    4.000 M/sec                  ", metric(shadow, branches, 2_000_000));
        assertEquals(" #   25.000 % of all cache refs    ", metric(shadow, cacheMisses, 250));
        assertEquals(" #    0.500 CPUs utilized          ", metric(shadow, clock, 500_000_000));
        // another context (user space only) has no clock nor cycles of its own: no metric
        assertEquals(" ".repeat(35), metric(shadow, userCycles, 1_000));
        assertEquals(" ".repeat(35), metric(new ShadowStats(1e9), insns, 1_000));
    }

    private static String metric(ShadowStats shadow, StatEvent e, double count) {
        String line = print(false, null, StatSession.row(e, new CounterValues((long) count, 1, 1), count, Double.NaN, shadow));
        return line.substring(18 + 1 + 4 + 1 + 32, line.length() - 1);
    }

    private static String print(boolean json, String csv, Row row) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        StatPrinter p = new StatPrinter(new PrintStream(b, true, StandardCharsets.UTF_8), json, csv, 4, 1);
        p.row(null, row);
        return b.toString(StandardCharsets.UTF_8);
    }
}
