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
        assertEquals("   0.12%", Percent.column(100.0 / 800));
        assertEquals(" 100.00%", Percent.column(100));
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
}
