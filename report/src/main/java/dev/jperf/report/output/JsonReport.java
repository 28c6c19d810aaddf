package dev.jperf.report.output;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.HistEntry;
import dev.jperf.report.aggregate.Hists;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.report.session.Frame;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The report as JSON (streamed with Jackson): the same rows, in the same order, as the stdio
 * table, with exact periods next to the percentages (Children and Self with --children, else
 * Overhead), and under each row the call graph the stdio report prints there.
 */
public final class JsonReport {
    private final OutputStream out;
    private final double percentLimit;

    private final boolean relative;
    private final CallchainParams callGraph;
    private final boolean sortStartsWithSym;

    public JsonReport(OutputStream out, double percentLimit) {
        this(out, percentLimit, false);
    }

    /** @param relative --percentage relative: of the samples the filters keep, not of all */
    public JsonReport(OutputStream out, double percentLimit, boolean relative) {
        this(out, percentLimit, relative, CallchainParams.NO_GRAPH, false);
    }

    /**
     * @param callGraph -g: each row of an event with callchains carries the call graph the stdio
     *     report prints under it
     * @param sortStartsWithSym the --sort list starts with sym (see {@link StdioReport})
     */
    public JsonReport(OutputStream out, double percentLimit, boolean relative, CallchainParams callGraph,
            boolean sortStartsWithSym) {
        this.out = out;
        this.percentLimit = percentLimit;
        this.relative = relative;
        this.callGraph = callGraph;
        this.sortStartsWithSym = sortStartsWithSym;
    }

    public void print(List<Hists> sections, long totalLostSamples) {
        try (JsonGenerator g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeNumberField("total_lost_samples", totalLostSamples);
            g.writeArrayFieldStart("events");
            for (Hists h : sections) {
                if (h.samples() == 0) {
                    continue;
                }
                g.writeStartObject();
                g.writeStringField("event", h.event().name());
                long total = relative ? h.nonFilteredPeriod() : h.totalPeriod();
                g.writeNumberField("samples", relative ? h.nonFilteredSamples() : h.samples());
                g.writeNumberField("event_count", total);
                g.writeArrayFieldStart("sort");
                for (SortKey k : h.keys()) {
                    g.writeString(k.name().toLowerCase(java.util.Locale.ROOT));
                }
                g.writeEndArray();
                g.writeArrayFieldStart("rows");
                boolean graph = callGraph.enabled() && h.graphOrder() != null;
                CallGraphPrinter printer = new CallGraphPrinter(null, callGraph, sortStartsWithSym);
                // as the stdio report: the threshold of the whole event, graph percentages of the whole event
                long minHit = (long) (h.graphThresholdTotal(relative) * (callGraph.minPercent() / 100));
                for (HistEntry e : h.sorted()) {
                    double self = StdioReport.percent(e.period(), total);
                    double acc = StdioReport.percent(e.periodAcc(), total);
                    if (e.filtered()) {
                        continue;
                    }
                    if (percentLimit > 0 && (h.children() ? acc : self) < percentLimit) {
                        continue;
                    }
                    g.writeStartObject();
                    if (h.children()) {
                        // perf's Children and Self columns
                        g.writeNumberField("children", round2(acc));
                        g.writeNumberField("children_period", e.periodAcc());
                        g.writeNumberField("self", round2(self));
                        g.writeNumberField("self_period", e.period());
                    } else {
                        g.writeNumberField("overhead", round2(self));
                        g.writeNumberField("period", e.period());
                    }
                    g.writeNumberField("samples", e.samples());
                    // one "comm" per row: comm, pid and tid all show it
                    boolean commWritten = false;
                    for (SortKey k : h.keys()) {
                        switch (k) {
                            case COMM -> {
                                if (!commWritten) {
                                    g.writeStringField("comm", e.comm());
                                    commWritten = true;
                                }
                            }
                            case DSO -> g.writeStringField("dso", e.dsoText());
                            case SYM -> {
                                g.writeStringField("sym", e.symbol() == null ? null : e.symbol().name());
                                g.writeStringField("level", String.valueOf(e.level()));
                                if (e.symbol() == null) {
                                    g.writeStringField("addr", "0x" + Long.toHexString(e.ip()));
                                }
                            }
                            case PID, TID -> {
                                g.writeNumberField(k == SortKey.PID ? "pid" : "tid", e.thread().tid());
                                if (!commWritten) {
                                    g.writeStringField("comm", e.comm());
                                    commWritten = true;
                                }
                            }
                            case CPU -> g.writeNumberField("cpu", e.cpu());
                            // branch mode: the keys by perf's names, as the stdio columns print them
                            case DSO_FROM -> g.writeStringField("dso_from", dsoText(e.from()));
                            case DSO_TO -> g.writeStringField("dso_to", dsoText(e.to()));
                            case SYMBOL_FROM -> g.writeStringField("symbol_from", HistEntry.symbolText(e.from(), Integer.MAX_VALUE).substring(4));
                            case SYMBOL_TO -> g.writeStringField("symbol_to", HistEntry.symbolText(e.to(), Integer.MAX_VALUE).substring(4));
                            case CYCLES -> g.writeNumberField("cycles", e.cycles());
                            case SRCLINE_FROM -> g.writeStringField("srcline_from", e.srclineFrom());
                            case SRCLINE_TO -> g.writeStringField("srcline_to", e.srclineTo());
                            case SRCLINE -> g.writeStringField("srcline", e.srcline());
                            case SRCFILE -> g.writeStringField("srcfile", e.srcfile());
                            case IPC_LBR -> { }
                        }
                    }
                    if (graph) {
                        printer.json(g, e.callchain(), h.totalPeriod(), h.children() ? e.periodAcc() : e.period(),
                                minHit);
                    }
                    g.writeEndObject();
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static double round2(double v) {
        return Math.round(v * 100) / 100.0;
    }

    private static String dsoText(Frame f) {
        return f.dso() == null ? "[unknown]" : f.dso().shortName();
    }
}
