package dev.jperf.report.top;

import dev.jperf.format.header.EventDesc;
import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.Hists;
import dev.jperf.report.output.StdioReport;
import java.io.PrintStream;
import java.util.Locale;

/**
 * perf top --stdio's screen (builtin-top.c perf_top__print_sym_table): clear, the header line
 * (perf_top__header_snprintf), a dashed line as wide as the terminal less one, perf's lost
 * warning, an empty line, then the entries as hists__fprintf prints them (report's
 * {@link StdioReport#printTop}); then the entries age for the next refresh.
 */
public final class TopStdio {
    /** perf's CONSOLE_CLEAR, printed by puts (a newline after it). */
    public static final String CONSOLE_CLEAR = "\033[H\033[2J";
    /** perf's HEADER_LINE_NR: the lines above the entries when the terminal decides how many. */
    public static final int HEADER_LINE_NR = 5;
    private static final String DOTTED = "-".repeat(1024);

    /**
     * What the header says of the target (perf's struct target): {@code pid} or {@code tid} as
     * given (-p, -t), else null; {@code cpuList} as given (-C), else null; {@code cpus} the CPUs
     * opened (perf's user_requested_cpus).
     */
    public record Target(String pid, String tid, String cpuList, int cpus) {}

    private final TopSession session;
    private final Target target;
    private final PrintStream out;
    private final double minPercent;
    private final CallchainParams callGraph;
    private final boolean relative;

    public TopStdio(TopSession session, Target target, PrintStream out, double minPercent, CallchainParams callGraph) {
        this.session = session;
        this.target = target;
        this.out = out;
        this.minPercent = minPercent;
        this.callGraph = callGraph;
        this.relative = false;
    }

    /**
     * One screen: {@code rows}, {@code cols} the terminal's size (perf's get_term_dimensions),
     * {@code entries} the rows to print (-E, else rows - {@link #HEADER_LINE_NR}), {@code delaySecs}
     * the refresh interval the rates are of; then the entries age ({@code zero}: are deleted).
     */
    public void screen(int cols, int entries, int delaySecs, boolean zero, boolean color) {
        session.locked(v -> {
            StringBuilder b = new StringBuilder();
            b.append(CONSOLE_CLEAR).append('\n');
            b.append(header(v, delaySecs)).append('\n');
            v.resetCounters();
            int width = Math.max(0, cols - 1);
            b.append(DOTTED, 0, Math.min(width, DOTTED.length())).append('\n');
            int printed = 0;
            long lost = v.takeLostWarning();
            if (lost != 0) {
                String w = "WARNING: LOST " + lost + " chunks, Check IO/CPU overload";
                b.append(color ? "\033[31m" + w + "\033[m" : w);
                printed++;
            }
            b.append('\n');
            out.append(b);
            Hists h = v.hists();
            if (h != null) {
                new StdioReport(out, 0, relative, callGraph, false).printTop(h, entries - printed, width, minPercent, color);
                v.decay(zero);
            }
            out.flush();
            return null;
        });
    }

    /** perf_top__header_snprintf (perf 6.1), the counters since the last header. */
    String header(TopSession.View v, int delaySecs) {
        long samples = v.samples();
        float perSec = 0;
        float kPercent = 0;
        float exact = 0;
        if (samples != 0) {
            // u64 divided by an int: an integer, then a float
            perSec = samples / delaySecs;
            float kPerSec = v.kernelSamples() / delaySecs;
            exact = (float) ((100.0 * v.exactSamples()) / samples);
            if (perSec != 0) {
                kPercent = (float) ((100.0 * kPerSec) / perSec);
            }
        }
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "   PerfTop:%8.0f irqs/sec  kernel:%4.1f%%  exact: %4.1f%% lost: %d/%d drop: 0/0 [",
                (double) perSec, (double) kPercent, (double) exact, v.lost(), v.lostTotal()));
        EventDesc e = v.event();
        if (v.events() == 1 && e != null) {
            b.append(Long.toUnsignedString(e.attr().samplePeriod())).append(e.attr().freq() ? "Hz" : "").append(' ');
        }
        b.append(e == null ? "" : e.name()).append("], ");
        if (target.pid() != null) {
            b.append(" (target_pid: ").append(target.pid());
        } else if (target.tid() != null) {
            b.append(" (target_tid: ").append(target.tid());
        } else {
            b.append(" (all");
        }
        if (target.cpuList() != null) {
            b.append(", CPU").append(target.cpus() > 1 ? "s" : "").append(": ").append(target.cpuList()).append(')');
        } else if (target.pid() != null || target.tid() != null) {
            b.append(')');
        } else {
            b.append(", ").append(target.cpus()).append(" CPU").append(target.cpus() > 1 ? "s" : "").append(')');
        }
        return b.toString();
    }
}
