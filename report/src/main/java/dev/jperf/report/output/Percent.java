package dev.jperf.report.output;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Percentages as perf prints them. */
public final class Percent {
    private Percent() {
    }

    /**
     * printf("%.2f"): the exact binary value rounded half-even, as glibc does (Java's "%.2f"
     * rounds the shortest decimal form half-up: 1/800 = 0.125 prints 0.13 there, 0.12 in perf).
     */
    public static String f2(double v) {
        return appendF2(new StringBuilder(12), v).toString();
    }

    /** {@link #f2} appended to {@code b}. */
    static StringBuilder appendF2(StringBuilder b, double v) {
        if (!(Math.abs(v) < 1e15)) {
            return b.append(new BigDecimal(v).setScale(2, RoundingMode.HALF_EVEN).toPlainString());
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
        if (bits < 0 && q != 0) {
            b.append('-');
        }
        long frac = q % 100;
        return b.append(q / 100).append('.').append(frac < 10 ? "0" : "").append(frac);
    }

    /**
     * perf's " %6.2f%%" column (hpp__fmt), appended to {@code b} (a report's rows: no string per
     * cell): a space even before a percentage of 1000 or more.
     */
    static StringBuilder appendColumn(StringBuilder b, double v) {
        b.append(' ');
        int at = b.length();
        appendF2(b, v);
        for (int pad = 6 - (b.length() - at); pad > 0; pad--) {
            b.insert(at, ' ');
        }
        return b.append('%');
    }
}
