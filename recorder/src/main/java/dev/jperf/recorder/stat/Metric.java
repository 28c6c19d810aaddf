package dev.jperf.recorder.stat;

import java.util.Locale;

/**
 * A derived value printed after {@code #} (perf's print_metric arguments): its printf format,
 * unit and value. No format means an empty metric column; no unit too prints "(null)" in JSON,
 * as perf's fprintf of a NULL string does.
 */
record Metric(String format, String unit, double value) {
    static final Metric NONE = new Metric(null, null, 0);

    boolean shown() {
        return format != null && unit != null;
    }

    String formatted() {
        return String.format(Locale.ROOT, format, value);
    }

    /** convert_unit_double: K, M or G before "/sec" for rates over a thousand. */
    static Metric perSecond(double rate) {
        String prefix = "";
        String[] units = {"K", "M", "G"};
        for (String u : units) {
            if (rate > 1000.0) {
                rate /= 1000.0;
                prefix = u;
            }
        }
        return new Metric("%8.3f", prefix + "/sec", rate);
    }
}
