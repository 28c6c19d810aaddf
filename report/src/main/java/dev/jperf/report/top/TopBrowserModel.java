package dev.jperf.report.top;

import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.Hists;
import dev.jperf.report.output.StdioReport;
import dev.jperf.report.tui.Browser;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;

/**
 * top's rows for report's {@link Browser}: perf top's header line as the title, the live hists'
 * rows (and call graphs, to expand) as the stdio screen has them, aged after each refresh.
 */
public final class TopBrowserModel implements Browser.Model {
    private final TopSession session;
    private final TopStdio stdio;
    private final int delaySecs;
    private final boolean zero;
    private final double minPercent;
    private final CallchainParams callGraph;
    private String title = "";

    public TopBrowserModel(TopSession session, TopStdio.Target target, int delaySecs, boolean zero, double minPercent,
            CallchainParams callGraph) {
        this.session = session;
        this.stdio = new TopStdio(session, target, new PrintStream(OutputStream.nullOutputStream()), minPercent, callGraph);
        this.delaySecs = delaySecs;
        this.zero = zero;
        this.minPercent = minPercent;
        this.callGraph = callGraph;
    }

    @Override
    public String title() {
        return title;
    }

    @Override
    public List<List<String>> rows(int maxCols) {
        return session.locked(v -> {
            title = stdio.header(v, delaySecs);
            v.resetCounters();
            Hists h = v.hists();
            if (h == null) {
                return List.<List<String>>of();
            }
            return new StdioReport(new PrintStream(OutputStream.nullOutputStream()), 0, false, callGraph, false)
                    .topRows(h, 0, 0, minPercent, false);
        });
    }

    @Override
    public long refreshNs() {
        return delaySecs * 1_000_000_000L;
    }

    @Override
    public void refreshed() {
        session.locked(v -> {
            v.decay(zero);
            return null;
        });
    }
}
