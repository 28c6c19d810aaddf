package dev.jperf.report.output;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Percentages as perf prints them. */
final class Percent {
    private Percent() {
    }

    /**
     * printf("%.2f"): the exact binary value rounded half-even, as glibc does (Java's "%.2f"
     * rounds the shortest decimal form half-up: 1/800 = 0.125 prints 0.13 there, 0.12 in perf).
     */
    static String f2(double v) {
        return new BigDecimal(v).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
    }

    /** perf's "%7.2f%%" column. */
    static String column(double v) {
        String s = f2(v);
        StringBuilder b = new StringBuilder(8);
        for (int i = s.length(); i < 7; i++) {
            b.append(' ');
        }
        return b.append(s).append('%').toString();
    }
}
