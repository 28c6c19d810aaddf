package dev.jperf.report.diff;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.header.EventDesc;
import dev.jperf.report.Report;
import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.HistEntry;
import dev.jperf.report.aggregate.Hists;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.report.output.Percent;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code perf diff OLD NEW} (builtin-diff.c of perf 6.1) in its default mode: each of the baseline's
 * events against the new file's event of the same type and config, entries sorted by dso,sym and
 * paired as perf's hists__match pairs them (the DSO's short name, the symbol's start and end, or the
 * address where no symbol was found), the new file's unpaired entries linked in, and the
 * "Delta Abs" column: the new share minus the baseline's, rows ordered by its absolute value, the
 * baseline's unpaired entries last by their share.
 */
public final class DiffReport {
    private static final List<SortKey> SORT = SortKey.parse("dso,sym");

    /** -c/--compute: what the change column shows and orders the rows by. */
    public enum Compute {
        /** The new share minus the baseline's, by its absolute value (perf's default). */
        DELTA_ABS("Delta Abs"),
        /** The same, by its signed value. */
        DELTA("Delta");

        final String header;

        Compute(String header) {
            this.header = header;
        }
    }

    /** How the difference is shown: -c and -p/--period. */
    public record View(Compute compute, boolean periods) {
        public static final View DEFAULT = new View(Compute.DELTA_ABS, false);
    }

    private DiffReport() {
    }

    /** One row: the baseline's entry (null when only the new file has it) and its pair in the new file. */
    private record Row(Merged base, Merged pair, double baseShare, double delta) {
        HistEntry any() {
            return base != null ? base.shown : pair.shown;
        }
    }

    /**
     * What perf diff's collapse compares for dso,sym: the DSO's short name and the symbol's name
     * (sort__sym_sort), every address without a symbol in a DSO being one entry.
     */
    private record Key(String dso, String symbol) {
        static Key of(HistEntry e) {
            return new Key(e.dso() == null ? null : e.dso().shortName(), e.symbol() == null ? null : e.symbol().name());
        }
    }

    /** The entries of one key merged: the one shown (the lowest address) and their period. */
    private static final class Merged {
        HistEntry shown;
        long period;
    }

    /** The file's entries collapsed by {@link Key}, in first-seen order. */
    private static java.util.LinkedHashMap<Key, Merged> collapse(Hists h) {
        java.util.LinkedHashMap<Key, Merged> out = new java.util.LinkedHashMap<>();
        if (h == null) {
            return out;
        }
        for (HistEntry e : h.sorted()) {
            if (e.filtered()) {
                continue;
            }
            Merged m = out.computeIfAbsent(Key.of(e), k -> new Merged());
            if (m.shown == null || Long.compareUnsigned(e.ip(), m.shown.ip()) < 0 && e.symbol() == null) {
                m.shown = e;
            }
            m.period += e.period();
        }
        return out;
    }

    /** Prints the difference of {@code newer} against {@code baseline}; {@code template} gives symbol options. */
    public static void print(PerfDataFile baseline, PerfDataFile newer, Report.Options template, Report.Options newerOptions,
            View view, PrintStream out) {
        List<Hists> base = aggregate(baseline, template);
        List<Hists> other = aggregate(newer, newerOptions);
        boolean firstSection = true;
        for (Hists b : base) {
            Hists o = null;
            for (Hists h : other) {
                if (h.event().attr().type() == b.event().attr().type() && h.event().attr().config() == b.event().attr().config()) {
                    o = h;
                    break;
                }
            }
            if (!firstSection) {
                out.println();
            }
            firstSection = false;
            section(b, o, view, out);
        }
        out.flush();
    }

    private static List<Hists> aggregate(PerfDataFile file, Report.Options template) {
        Report.Options o = template.toBuilder().sort(SORT).children(false).callGraph(CallchainParams.NO_GRAPH).build();
        Report.Result r = Report.aggregate(file, o);
        // every event of the file, in its order, with or without samples
        List<Hists> out = new ArrayList<>();
        for (EventDesc e : file.events()) {
            Hists found = null;
            for (Hists h : r.hists()) {
                if (h.event() == e || h.event().index() == e.index()) {
                    found = h;
                    break;
                }
            }
            out.add(found != null ? found : new Hists(e, SORT, false));
        }
        return out;
    }

    private static void section(Hists base, Hists other, View view, PrintStream out) {
        long baseTotal = base.totalPeriod();
        long otherTotal = other == null ? 0 : other.totalPeriod();
        java.util.LinkedHashMap<Key, Merged> others = collapse(other);
        List<Row> rows = new ArrayList<>();
        java.util.Set<Key> paired = new java.util.HashSet<>();
        for (Map.Entry<Key, Merged> e : collapse(base).entrySet()) {
            double share = percent(e.getValue().period, baseTotal);
            Merged p = others.get(e.getKey());
            if (p != null) {
                paired.add(e.getKey());
                rows.add(new Row(e.getValue(), p, share, percent(p.period, otherTotal) - share));
            } else {
                rows.add(new Row(e.getValue(), null, share, 0));
            }
        }
        for (Map.Entry<Key, Merged> e : others.entrySet()) {
            if (!paired.contains(e.getKey())) {
                rows.add(new Row(null, e.getValue(), 0, percent(e.getValue().period, otherTotal)));
            }
        }
        rows.sort(view.compute() == Compute.DELTA ? BY_DELTA : ORDER);
        int dsoWidth = "Shared Object".length();
        int symWidth = "Symbol".length();
        for (Row r : rows) {
            HistEntry e = r.any();
            dsoWidth = Math.max(dsoWidth, e.dso() == null ? 16 : e.dso().shortName().length());
            symWidth = Math.max(symWidth, e.symbol() != null ? e.symbol().name().length() + 4 : 16 + 4 + 2);
            if (e.dso() == null || e.symbol() == null) {
                dsoWidth = Math.max(dsoWidth, 16);
            }
        }
        out.println("# Event '" + base.event().name() + "'");
        out.println("#");
        String change = view.compute().header;
        // the change column is as wide as its header, at least "+100.00%" wide
        int changeWidth = Math.max(change.length(), 7);
        StringBuilder hdr = new StringBuilder("# Baseline  ");
        StringBuilder dots = new StringBuilder("# ........  ");
        if (view.periods()) {
            hdr.append(padLeft("Base period", PERIOD_WIDTH)).append("  ");
            dots.append(".".repeat(PERIOD_WIDTH)).append("  ");
        }
        hdr.append(padLeft(change, changeWidth)).append("  ");
        dots.append(".".repeat(changeWidth)).append("  ");
        if (view.periods()) {
            hdr.append(padLeft("Period", PERIOD_WIDTH)).append("  ");
            dots.append(".".repeat(PERIOD_WIDTH)).append("  ");
        }
        out.println(hdr.append(pad("Shared Object", dsoWidth)).append("  ").append(pad("Symbol", symWidth)));
        out.println(dots.append(".".repeat(dsoWidth)).append("  ").append(".".repeat(symWidth)));
        out.println("#");
        StringBuilder b = new StringBuilder();
        for (Row r : rows) {
            b.setLength(0);
            b.append("  ");
            b.append(r.base == null ? " ".repeat(8) : padLeft(Percent.f2(r.baseShare) + "%", 8));
            b.append("  ");
            if (view.periods()) {
                b.append(padLeft(Long.toUnsignedString(r.base == null ? 0 : r.base.period), PERIOD_WIDTH)).append("  ");
            }
            b.append(r.pair == null ? " ".repeat(changeWidth) : padLeft(delta(r.delta), changeWidth));
            b.append("  ");
            if (view.periods()) {
                b.append(r.pair == null ? " ".repeat(PERIOD_WIDTH) : padLeft(Long.toUnsignedString(r.pair.period), PERIOD_WIDTH));
                b.append("  ");
            }
            HistEntry e = r.any();
            b.append(pad(e.dsoText(), dsoWidth)).append("  ");
            e.appendSymbolText(b, symWidth);
            out.println(b);
        }
    }

    /** perf's "%+4.2F%%" of the delta: a small loss shows as -0.00%. */
    private static String delta(double d) {
        return (d < 0 ? "-" : "+") + Percent.f2(Math.abs(d)) + "%";
    }

    /**
     * builtin-diff.c's output order: entries with a pair first, by the absolute delta (largest
     * first), then by the baseline's share, the DSO's name and the symbol's (names before
     * addresses).
     */
    private static final Comparator<Row> ORDER = (x, y) -> {
        boolean px = x.pair != null;
        boolean py = y.pair != null;
        if (px != py) {
            return px ? -1 : 1;
        }
        if (px) {
            int c = Double.compare(Math.abs(y.delta), Math.abs(x.delta));
            if (c != 0) {
                return c;
            }
        }
        int c = Double.compare(y.baseShare, x.baseShare);
        if (c != 0) {
            return c;
        }
        c = Objects.compare(x.any().dsoText(), y.any().dsoText(), Comparator.naturalOrder());
        if (c != 0) {
            return c;
        }
        // sort__sym_sort: by name, an address without a symbol after every name
        if (x.any().symbol() == null || y.any().symbol() == null) {
            return x.any().symbol() == null ? (y.any().symbol() == null ? 0 : 1) : -1;
        }
        return x.any().symbol().name().compareTo(y.any().symbol().name());
    };

    /** -c delta: by the signed delta, largest gain first; then as {@link #ORDER}. */
    private static final Comparator<Row> BY_DELTA = (x, y) -> {
        boolean px = x.pair != null;
        boolean py = y.pair != null;
        if (px != py) {
            return px ? -1 : 1;
        }
        if (px) {
            int c = Double.compare(y.delta, x.delta);
            if (c != 0) {
                return c;
            }
        }
        return ORDER.compare(x, y);
    };

    /** The period columns of -p: "%*lu" in 14. */
    private static final int PERIOD_WIDTH = 14;

    private static double percent(long period, long total) {
        return total == 0 ? 0 : period * 100.0 / total;
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }

    private static String padLeft(String s, int width) {
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }
}
