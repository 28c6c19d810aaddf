package dev.jperf.report.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class PercentTest {
    @Test
    void roundsTheExactValueHalfEvenAsGlibcPrintf() {
        assertEquals("0.12", Percent.f2(100.0 / 800)); // a tie: Java's %.2f says 0.13
        assertEquals("0.38", Percent.f2(300.0 / 800));
        assertEquals("2.67", Percent.f2(2.675)); // just below ...675 in binary
        assertEquals("100.00", Percent.f2(100));
        assertEquals("0.00", Percent.f2(0));
        assertEquals("   0.12%", column(100.0 / 800));
        assertEquals(" 100.00%", column(100));
    }

    /** The long-arithmetic rounding equals the exact BigDecimal one on random and edge values. */
    @Test
    void equalsTheExactDecimalExpansion() {
        java.util.Random r = new java.util.Random(7);
        List<Double> values = new ArrayList<>(List.of(0.0, -0.0, 0.005, 0.015, 0.025, 1e-300, Double.MIN_VALUE, 99.995,
                100.0, 12345.675, 9.99999999e14, -2.675, -0.004, 1e16));
        for (int i = 0; i < 200_000; i++) {
            values.add(r.nextDouble() * Math.pow(10, r.nextInt(17) - 4));
            values.add((double) r.nextInt(100_000) / (1 + r.nextInt(100_000)) * 100);
            values.add(r.nextInt(20_000) / 800.0);
        }
        for (double v : values) {
            assertEquals(new java.math.BigDecimal(v).setScale(2, java.math.RoundingMode.HALF_EVEN).toPlainString(),
                    Percent.f2(v), Double.toString(v));
        }
    }

    /** Python's "%.2f" rounds the exact binary value like C's printf: the oracle for many shares. */
    @Test
    void agreesWithCPrintfOnSharesOfSmallTotals() throws IOException, InterruptedException {
        List<Double> values = new ArrayList<>();
        for (int total = 1; total <= 1600; total += 7) {
            for (int period = 0; period <= total; period += Math.max(1, total / 50)) {
                values.add(period * 100.0 / total);
            }
        }
        StringBuilder in = new StringBuilder();
        for (double v : values) {
            in.append(Double.toString(v)).append('\n');
        }
        Process p;
        try {
            p = new ProcessBuilder("python3", "-c",
                    "import sys\nfor l in sys.stdin: print('%.2f' % float(l))").start();
        } catch (IOException e) {
            Assumptions.abort("python3 is not installed: " + e.getMessage());
            return;
        }
        p.getOutputStream().write(in.toString().getBytes(StandardCharsets.US_ASCII));
        p.getOutputStream().close();
        String[] expected = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).split("\n");
        assertEquals(0, p.waitFor());
        assertEquals(values.size(), expected.length);
        for (int i = 0; i < values.size(); i++) {
            assertEquals(expected[i], Percent.f2(values.get(i)), "share " + values.get(i));
        }
    }

    private static String column(double v) {
        return Percent.appendColumn(new StringBuilder(), v).toString();
    }
}
