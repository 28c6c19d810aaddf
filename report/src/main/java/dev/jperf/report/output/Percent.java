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
        if (!(Math.abs(v) < 1e15)) {
            return new BigDecimal(v).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
        }
        // v = mantissa * 2^e exactly; v * 100 rounded half-even in long arithmetic (the BigDecimal
        // expansion of every printed percentage was 10 % of a call-graph report's allocation)
        long bits = Double.doubleToRawLongBits(v);
        int exponent = (int) ((bits >>> 52) & 0x7ff);
        long mantissa = bits & ((1L << 52) - 1);
        if (exponent == 0) {
            exponent = 1; // subnormal
        } else {
            mantissa |= 1L << 52;
        }
        int e = exponent - 1075;
        long hundredfold = mantissa * 100; // < 2^60
        long q;
        if (e >= 0) {
            q = hundredfold << e; // |v| < 1e15: fits
        } else if (-e >= 62) {
            q = 0; // below half a hundredth
        } else {
            int shift = -e;
            q = hundredfold >>> shift;
            long rest = hundredfold & ((1L << shift) - 1);
            long half = 1L << (shift - 1);
            if (rest > half || (rest == half && (q & 1) == 1)) {
                q++;
            }
        }
        StringBuilder b = new StringBuilder(12);
        if (bits < 0 && q != 0) {
            b.append('-');
        }
        long frac = q % 100;
        return b.append(q / 100).append('.').append(frac < 10 ? "0" : "").append(frac).toString();
    }

    /** perf's " %6.2f%%" column (hpp__fmt): a space even before a percentage of 1000 or more. */
    static String column(double v) {
        String s = f2(v);
        StringBuilder b = new StringBuilder(8).append(' ');
        for (int i = s.length(); i < 6; i++) {
            b.append(' ');
        }
        return b.append(s).append('%').toString();
    }
}
