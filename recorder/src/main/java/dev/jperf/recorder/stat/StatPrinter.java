package dev.jperf.recorder.stat;

import dev.jperf.format.json.JsonWriter;
import dev.jperf.nativeshim.ResourceUsage;
import java.io.PrintStream;
import java.util.Locale;

/**
 * perf 6.1's stat output (util/stat-display.c), byte for byte: the table ({@code %18.2f} counts,
 * unit column, 32-wide names, {@code # metric} in 35 columns, {@code ( +- x.xx% )} over runs,
 * {@code (xx.xx%)} when multiplexed), {@code -x} CSV, {@code -j} JSON lines, the interval prefix
 * and its header every 25 intervals, and the footer with elapsed, user and sys time. JSON lines go
 * through format's {@link JsonWriter} in perf's layout ({@code "name" : value, ...}); perf prints
 * names unescaped (fprintf's {@code "%s"}), and its event parser accepts no name that needs an
 * escape, so escaping changes no line perf can print and keeps every line JSON.
 */
final class StatPrinter {
    enum Mode { STD, CSV, JSON }

    private static final String NOT_SUPPORTED = "<not supported>";
    private static final String NOT_COUNTED = "<not counted>";
    /** METRIC_LEN */
    private static final int METRIC_LEN = 35;
    /** how often the interval header is repeated (print_interval's num_print_interval) */
    private static final int HEADER_EVERY = 25;

    private final PrintStream out;
    private final Mode mode;
    private final String sep;
    private final int unitWidth;
    private final int runs;
    private final Aggr aggr;
    private int intervalsPrinted;
    /** The JSON object of the row being printed (JSON mode). */
    private JsonWriter json;

    /**
     * @param csvSeparator {@code -x}'s separator (CSV mode), else null
     * @param unitWidth    the widest unit of the events shown, at least 4 (perf's unit_width)
     */
    StatPrinter(PrintStream out, boolean json, String csvSeparator, int unitWidth, int runs) {
        this(out, json, csvSeparator, unitWidth, runs, Aggr.GLOBAL);
    }

    /** @param aggr the aggregation mode: the id column of the interval header */
    StatPrinter(PrintStream out, boolean json, String csvSeparator, int unitWidth, int runs, Aggr aggr) {
        this.aggr = aggr;
        this.out = out;
        this.mode = json ? Mode.JSON : csvSeparator != null ? Mode.CSV : Mode.STD;
        this.sep = csvSeparator != null ? csvSeparator : " ";
        this.unitWidth = Math.max(4, unitWidth);
        this.runs = runs;
    }

    Mode mode() {
        return mode;
    }

    /** print_header: {@code Performance counter stats for '...'} (the table only). */
    void header(String target, int runCount) {
        if (mode != Mode.STD) {
            return;
        }
        out.print("\n Performance counter stats for " + target + (runCount > 1 ? " (" + runCount + " runs)" : "")
                + ":\n\n");
    }

    /** The prefix of every line of an interval {@code ns} after the start (JSON: its "interval" value). */
    String intervalPrefix(long ns) {
        String t = String.format(Locale.ROOT, "%d.%09d", ns / 1_000_000_000L, ns % 1_000_000_000L);
        if (mode == Mode.JSON) {
            return t;
        }
        return String.format(Locale.ROOT, "%6d.%09d", ns / 1_000_000_000L, ns % 1_000_000_000L) + sep;
    }

    /**
     * The column header before the first interval and every 25th after it (the table only); with
     * {@code --interval-clear} the terminal cleared first and the header before every interval, CSV
     * and JSON too (perf's print_interval: CONSOLE_CLEAR by puts on stdout).
     */
    void intervalHeader(boolean clear) {
        if (clear) {
            out.flush();
            System.out.print("\033[H\033[2J\n");
            System.out.flush();
        }
        if ((mode == Mode.STD && intervalsPrinted == 0) || clear) {
            out.print("#           time" + aggr.intervalHeader + "             counts " + pad("unit", unitWidth, false)
                    + " events\n");
        }
        if (++intervalsPrinted == HEADER_EVERY) {
            intervalsPrinted = 0;
        }
    }

    /** One row; {@code prefix} is the interval's, null outside interval mode. */
    void row(String prefix, Row r) {
        row(prefix, null, r);
    }

    /** One row, after the id of its CPU, thread, core, die, socket or node (null: global). */
    void row(String prefix, Aggregation.Id id, Row r) {
        StringBuilder b = new StringBuilder();
        if (mode == Mode.JSON) {
            json = new JsonWriter(b).spaced(true).colonSpaced(true).standard(true);
            json.startObject();
            if (prefix != null) {
                json.name("interval");
                json.raw(prefix);
            }
        } else if (prefix != null) {
            b.append(prefix);
        }
        if (id != null) {
            id(b, id);
        }
        if (r.counted()) {
            counted(b, r);
        } else {
            notCounted(b, r);
        }
        if (mode == Mode.JSON) {
            json.endObject();
        }
        out.print(b.append('\n'));
    }

    /** print_aggr_id_std/csv/json */
    private void id(StringBuilder b, Aggregation.Id id) {
        String label = id.label();
        switch (mode) {
            case JSON -> {
                json.stringField(id.mode().jsonKey(), label);
                if (id.mode().byTopology()) {
                    json.intField("aggregate-number", id.nr());
                }
            }
            case CSV -> {
                b.append(id.mode() == Aggr.NONE ? "CPU" : "").append(label).append(sep);
                if (id.mode().byTopology()) {
                    b.append(id.nr()).append(sep);
                }
            }
            default -> {
                switch (id.mode()) {
                    case NONE -> b.append(f("CPU%-7s ", label));
                    case THREAD -> {
                        int dash = label.lastIndexOf('-');
                        b.append(f("%16s-%-8s ", label.substring(0, dash), label.substring(dash + 1)));
                    }
                    default -> b.append(pad(label, id.mode().width(), true)).append(f(" %4d ", id.nr()));
                }
            }
        }
    }

    private void counted(StringBuilder b, Row r) {
        switch (mode) {
            case JSON -> {
                json.stringField("counter-value", f("%f", r.value()));
                json.stringField("unit", r.unit());
                json.stringField("event", r.name());
                noise(b, r);
                running(b, r.values());
                metric(b, r.metric());
            }
            case CSV -> {
                b.append(f(r.fraction() ? "%.2f" : "%.0f", r.value())).append(sep);
                b.append(r.unit()).append(sep).append(r.name());
                noise(b, r);
                running(b, r.values());
                metric(b, r.metric());
            }
            default -> {
                b.append(f(r.fraction() ? "%18.2f" : "%18.0f", r.value())).append(sep);
                b.append(pad(r.unit(), unitWidth, true)).append(sep).append(pad(r.name(), 32, true));
                metric(b, r.metric());
                noise(b, r);
                running(b, r.values());
            }
        }
    }

    private void notCounted(StringBuilder b, Row r) {
        String text = r.supported() ? NOT_COUNTED : NOT_SUPPORTED;
        CounterValues v = r.values() != null ? r.values() : CounterValues.ZERO;
        switch (mode) {
            case JSON -> {
                json.stringField("counter-value", text);
                json.stringField("unit", r.unit());
                json.stringField("event", r.name());
                noise(b, r);
                running(b, v);
                metric(b, new Metric(null, "", 0));
            }
            case CSV -> {
                b.append(text).append(sep).append(r.unit()).append(sep).append(r.name());
                noise(b, r);
                running(b, v);
                metric(b, Metric.NONE);
            }
            default -> {
                b.append(pad(text, 18, false)).append(sep).append(pad(r.unit(), unitWidth, true)).append(sep)
                        .append(pad(r.name(), 25, true));
                metric(b, Metric.NONE);
                noise(b, r);
                running(b, v);
            }
        }
    }

    /** print_noise: only over several runs; the table leaves out a zero spread. */
    private void noise(StringBuilder b, Row r) {
        if (runs <= 1 || Double.isNaN(r.noise())) {
            return;
        }
        switch (mode) {
            case JSON -> {
                json.name("variance");
                json.raw(f("%.2f", r.noise()));
            }
            case CSV -> b.append(sep).append(f("%.2f", r.noise())).append('%');
            default -> {
                if (r.noise() != 0) {
                    b.append(f("  ( +-%6.2f%% )", r.noise()));
                }
            }
        }
    }

    /** print_running: the share of the enabled time the event was on the PMU. */
    private void running(StringBuilder b, CounterValues v) {
        long run = v.run();
        long ena = v.ena();
        switch (mode) {
            case JSON, CSV -> {
                // perf divides integers here (100 * run / ena), then prints two decimals
                double pct = run != ena ? (double) Long.divideUnsigned(100 * run, ena) : 100;
                if (mode == Mode.JSON) {
                    json.uintField("event-runtime", run);
                    json.name("pcnt-running");
                    json.raw(f("%.2f", pct));
                } else {
                    b.append(sep).append(Long.toUnsignedString(run)).append(sep).append(f("%.2f", pct));
                }
            }
            default -> {
                if (run != ena) {
                    b.append(f("  (%.2f%%)", 100.0 * run / ena));
                }
            }
        }
    }

    private void metric(StringBuilder b, Metric m) {
        switch (mode) {
            case JSON -> {
                json.name("metric-value");
                json.raw(f("%f", m.value()));
                json.stringField("metric-unit", m.unit() == null ? "(null)" : m.unit());
            }
            case CSV -> {
                if (!m.shown()) {
                    b.append(sep).append(sep);
                } else {
                    // print_metric_csv: the number without its padding, up to the first other character
                    String v = m.formatted().strip();
                    int end = 0;
                    while (end < v.length() && (Character.isDigit(v.charAt(end)) || v.charAt(end) == '.')) {
                        end++;
                    }
                    b.append(sep).append(v, 0, end).append(sep).append(m.unit().stripLeading());
                }
            }
            default -> {
                if (!m.shown()) {
                    b.append(" ".repeat(METRIC_LEN));
                } else {
                    String v = m.formatted();
                    int n = 3 + v.length();
                    b.append(" # ").append(v).append(' ').append(pad(m.unit(), METRIC_LEN - n - 1, true));
                }
            }
        }
    }

    /**
     * print_footer: elapsed seconds (mean and spread over runs), and for one run of a command its
     * user and sys time ({@code usage} null: not shown). The table only.
     */
    void footer(Stats wall, ResourceUsage usage, boolean nullRun) {
        footer(wall, usage, nullRun, null);
    }

    /** As {@link #footer(Stats, ResourceUsage, boolean)}, {@code --table}'s run times ({@code table}, seconds) first. */
    void footer(Stats wall, ResourceUsage usage, boolean nullRun, double[] table) {
        if (mode != Mode.STD) {
            return;
        }
        // perf leaves out the blank line after the counts on a null run (-n), even with -e's
        StringBuilder b = new StringBuilder(nullRun ? "" : "\n");
        double avg = wall.avg() / 1e9;
        if (runs == 1) {
            b.append(f(" %17.9f seconds time elapsed", avg));
            if (usage != null) {
                b.append("\n\n");
                b.append(f(" %17.9f seconds user\n", usage.userMicros() / 1e6));
                b.append(f(" %17.9f seconds sys\n", usage.sysMicros() / 1e6));
            }
        } else {
            double sd = wall.stddev() / 1e9;
            int precision = precision(sd) + 2;
            if (table != null) {
                table(b, table, precision, avg);
            }
            b.append(f(" %17." + precision + "f +- %." + precision + "f seconds time elapsed", avg, sd));
            double pct = Stats.relStddev(sd, avg);
            if (pct != 0) {
                b.append(f("  ( +-%6.2f%% )", pct));
            }
        }
        out.print(b.append("\n\n"));
    }

    /** print_table: each run's elapsed time, its distance from the mean and a bar of it (a # per 5 %). */
    private static void table(StringBuilder b, double[] runs, int precision, double avg) {
        String first = f(" %17." + precision + "f", avg);
        int indent = first.length() - first.stripLeading().length();
        b.append(" ".repeat(indent)).append("# Table of individual measurements:\n");
        for (double run : runs) {
            int n = 1 + Math.abs((int) (100.0 * (run - avg) / run) / 5);
            b.append(f(" %17." + precision + "f (%+." + precision + "f) ", run, run - avg)).append("#".repeat(n)).append('\n');
        }
        b.append('\n').append(" ".repeat(indent)).append("# Final result:\n");
    }

    /** get_precision: the digits after the point that the spread's first significant one needs. */
    private static int precision(double num) {
        if (num > 1 || !(num > 0)) {
            return 0;
        }
        return (int) Math.round(Math.ceil(-Math.log10(num)));
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    private static String pad(String s, int width, boolean left) {
        if (s.length() >= width) {
            return s;
        }
        String spaces = " ".repeat(width - s.length());
        return left ? s + spaces : spaces + s;
    }
}
