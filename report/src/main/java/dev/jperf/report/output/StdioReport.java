package dev.jperf.report.output;

import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.Field;
import dev.jperf.report.aggregate.FieldOrder;
import dev.jperf.report.aggregate.GroupHists;
import dev.jperf.report.aggregate.HistEntry;
import dev.jperf.report.aggregate.Hists;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.report.session.Frame;
import dev.jperf.report.session.SampleFilter;
import dev.jperf.report.symbol.Dso;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * perf report --stdio's layout: the header comment block, one section per event (sample count,
 * event name, event count), a column header with perf's widths, then one row per entry.
 */
public final class StdioReport {
    private final PrintStream out;
    private final double percentLimit;
    private final CallchainParams callGraph;
    private final boolean sortStartsWithSym;

    private final boolean relative;
    private static final int SAMPLES_WIDTH = 12;
    /** perf's percentage columns: " %6.2f%%". */
    private static final int PERCENT_WIDTH = 8;
    /** Characters of rows gathered before they are printed (see section). */
    private static final int ROWS_BLOCK = 1 << 15;
    /** -n/--show-nr-samples. */
    private boolean showSamples;
    /** --show-total-period. */
    private boolean showPeriod;
    /** -q/--quiet. */
    private boolean quiet;
    /** --skip-empty (default): no section for an event without samples. */
    private boolean skipEmpty = true;
    /** The percentages in perf's colours (stdout a terminal, or perf's pager). */
    private boolean color;
    /** -t/--field-separator: between the columns instead of two spaces; null for none. */
    private String separator;
    /** -F, or --sort naming output fields: the columns in perf's order; null for the default layout. */
    private FieldOrder fields;
    /** Filters of one value: perf prints that value once ("# dso: x") and leaves its column out. */
    private SampleFilter elide = SampleFilter.NONE;

    public StdioReport(PrintStream out, double percentLimit) {
        this(out, percentLimit, false, CallchainParams.NO_GRAPH, false);
    }

    /**
     * @param relative --percentage relative: of the samples the filters keep, not of all
     * @param callGraph how graphs are printed under entries that have one
     * @param sortStartsWithSym the --sort list starts with sym (perf then leaves the entry's own
     *     symbol out of a lone graph root)
     */
    public StdioReport(PrintStream out, double percentLimit, boolean relative, CallchainParams callGraph,
            boolean sortStartsWithSym) {
        this.out = out;
        this.relative = relative;
        this.percentLimit = percentLimit;
        this.callGraph = callGraph;
        this.sortStartsWithSym = sortStartsWithSym;
    }

    /** The report's filters: a --comms, --dsos or --symbols list of one elides its sort key (perf's sort__setup_elide). */
    public StdioReport elide(SampleFilter filter) {
        this.elide = filter;
        return this;
    }

    /** perf's --skip-empty/--no-skip-empty. */
    public StdioReport skipEmpty(boolean skipEmpty) {
        this.skipEmpty = skipEmpty;
        return this;
    }

    /** perf's colours (perf_use_color_default: on for a terminal or its pager). */
    public StdioReport color(boolean color) {
        this.color = color;
        return this;
    }

    /** perf's -q/--quiet: the rows alone, none of the comment lines around them but a filter's value. */
    public StdioReport quiet(boolean quiet) {
        this.quiet = quiet;
        return this;
    }

    /**
     * perf's -t/--field-separator: the columns joined by {@code sep}, each value printed unaligned
     * with a space before it and padded to its column (hpp's field_sep printing), and no dotted line.
     */
    public StdioReport separator(String sep) {
        this.separator = sep;
        return this;
    }

    /** perf's columns of -F/--fields (and --sort naming output fields); null: the default layout. */
    public StdioReport fields(FieldOrder fields) {
        this.fields = fields;
        return this;
    }

    /** A comment line of the report ("# ..."), left out with -q. */
    private void comment(CharSequence line) {
        if (!quiet) {
            out.println(line);
        }
    }

    /** perf's -n/--show-nr-samples: a Samples column after the percentages. */
    public StdioReport showSamples(boolean show) {
        this.showSamples = show;
        return this;
    }

    /** perf's --show-total-period: a Period column (the entry's own period) after Samples. */
    public StdioReport showPeriod(boolean show) {
        this.showPeriod = show;
        return this;
    }

    /** Each event's hists a section of its own. */
    public void print(List<Hists> hists, long totalLostSamples) {
        printSections(GroupHists.ungrouped(hists), totalLostSamples);
    }

    /**
     * What perf prints before the report, also when it finds no samples: the header hint and the
     * value of each one-value filter of these keys.
     */
    public void printPreamble(List<SortKey> keys) {
        comment("# To display the perf.data header info, please use --header/--header-only options.");
        comment("#");
        for (SortKey k : keys) {
            String v = elided(k);
            if (v != null) {
                // perf prints it with -q too
                out.println("# " + (k == SortKey.SYM ? "symbol" : k == SortKey.DSO ? "dso" : "comm") + ": " + v);
            }
        }
        out.flush();
    }

    /** The report of these sections (events, or groups of events in perf's group view). */
    public void printSections(List<GroupHists> sections, long totalLostSamples) {
        printPreamble(sections.isEmpty() ? List.of() : sections.get(0).leader().keys());
        comment("#");
        comment("# Total Lost Samples: " + totalLostSamples);
        comment("#");
        for (GroupHists g : sections) {
            // perf's skip_empty looks at the leader's samples alone
            if (skipEmpty && g.leader().samples() == 0) {
                continue;
            }
            section(g);
            out.println();
            out.println();
        }
        comment("#");
        comment("# (Tip: jperf report --json prints the same rows for scripts)");
        comment("#");
    }

    /** perf's convert_unit: 22655 -> "22K". */
    static String samplesText(long n) {
        char unit = ' ';
        if (n > 1000) {
            n /= 1000;
            unit = 'K';
        }
        if (n > 1000) {
            n /= 1000;
            unit = 'M';
        }
        if (n > 1000) {
            n /= 1000;
            unit = 'G';
        }
        return n + String.valueOf(unit);
    }

    private void section(GroupHists g) {
        Hists h = g.leader();
        // perf's hists__total_period: filtered samples count unless --percentage relative
        long total = relative ? h.nonFilteredPeriod() : h.totalPeriod();
        int columns = g.columns();
        long[] totals = new long[columns];
        for (int i = 0; i < columns; i++) {
            totals[i] = relative ? g.hists(i).nonFilteredPeriod() : g.hists(i).totalPeriod();
        }
        comment("# Samples: " + samplesText(g.samples(relative)) + " of event" + (g.plural() ? "s" : "")
                + " '" + g.title() + "'" + (elide.timeRange() == null ? "" : " (time slices: " + elide.timeRange() + ")"));
        comment("# Event count (approx.): " + Long.toUnsignedString(g.totalPeriod(relative)));
        comment("#");
        List<SortKey> keys = shownKeys(h.keys());
        Set<SortKey> elided = EnumSet.noneOf(SortKey.class);
        elided.addAll(h.keys());
        elided.removeAll(keys);
        List<HistEntry> shown = new ArrayList<>();
        List<HistEntry> rows = new ArrayList<>();
        for (HistEntry e : g.sorted(elided)) {
            if (e.filtered()) {
                continue;
            }
            shown.add(e);
            double pct = percent(h.children() ? e.periodAcc() : e.period(), total);
            if (pct >= percentLimit || percentLimit <= 0) {
                rows.add(e);
            }
        }
        // perf sizes the columns in output_resort, over every entry the filters keep; --percent-limit
        // only skips rows when printing
        int[] width = widths(keys, shown);
        StringBuilder hdr = new StringBuilder("# ");
        StringBuilder dots = new StringBuilder("# ");
        String sep = separator == null ? "  " : separator;
        // hpp__width_fn: in group view a column per member, each as wide as the one of an event
        int pctWidth = PERCENT_WIDTH * columns;
        if (fields != null) {
            fieldHeader(hdr, dots, sep, columns, keys, width);
        } else if (h.children()) {
            hdr.append(padLeft("Children", pctWidth, ' ')).append(sep);
            dots.append(".".repeat(pctWidth)).append("  ");
        }
        if (fields == null) {
            hdr.append(padLeft(h.children() ? "Self" : "Overhead", pctWidth, ' '));
            dots.append(".".repeat(pctWidth));
        }
        if (fields == null && showSamples) {
            // perf's "Samples" column: the entry's own samples (he->stat.nr_events), 12 wide
            hdr.append(sep).append(padLeft("Samples", SAMPLES_WIDTH * columns, ' '));
            dots.append("  ").append(".".repeat(SAMPLES_WIDTH * columns));
        }
        if (fields == null && showPeriod) {
            // perf's "Period" column: he->stat.period, as wide as Samples
            hdr.append(sep).append(padLeft("Period", SAMPLES_WIDTH * columns, ' '));
            dots.append("  ").append(".".repeat(SAMPLES_WIDTH * columns));
        }
        for (int i = 0; fields == null && i < keys.size(); i++) {
            hdr.append(sep).append(pad(keys.get(i).header(), width[i]));
            dots.append("  ").append(".".repeat(width[i]));
        }
        comment(hdr);
        if (separator == null) {
            comment(dots);
            comment("#");
        }
        // the rows go out in blocks of lines: one PrintStream call per line (its lock, its
        // encoder's layers) was half of printing 94k rows
        StringBuilder b = new StringBuilder(ROWS_BLOCK + 256);
        String newline = System.lineSeparator();
        boolean graph = callGraph.enabled() && h.graphOrder() != null;
        StringBuilder graphText = new StringBuilder();
        CallGraphPrinter printer = new CallGraphPrinter(graphText, callGraph, sortStartsWithSym).color(color);
        // perf's min_callchain_hits: the threshold of the whole event, as an integer period
        long minHit = (long) (h.graphThresholdTotal(relative) * (callGraph.minPercent() / 100));
        for (HistEntry e : rows) {
            if (b.length() >= ROWS_BLOCK) {
                out.append(b);
                b.setLength(0);
            }
            if (fields != null) {
                fieldRow(b, g, e, totals, keys, width);
            } else if (separator != null) {
                separatedRow(b, g, e, totals, keys, width, h.keys());
            } else {
                defaultRow(b, g, e, totals, keys, width, color);
            }
            b.append(newline);
            if (graph) {
                graphText.setLength(0);
                // perf prints graph percentages of the whole event (stats.total_period) even when relative
                printer.print(e.callchain(), h.totalPeriod(), h.children() ? e.periodAcc() : e.period(), minHit);
                // printed as it is: a graph can be megabytes, which the block would keep as capacity
                out.append(b);
                b.setLength(0);
                out.append(graphText);
            }
        }
        out.append(b);
    }

    /**
     * A row of perf's default columns (children, self, samples, period, the keys), percentages in
     * perf's colors when {@code color} (percent_color: red from 5 %, green above 0.5 %).
     */
    private void defaultRow(StringBuilder b, GroupHists g, HistEntry e, long[] totals, List<SortKey> keys, int[] width,
            boolean color) {
        Hists h = g.leader();
        int columns = g.columns();
        b.append("  ");
        if (h.children()) {
            for (int i = 0; i < columns; i++) {
                HistEntry p = g.pair(e, i);
                percentColumn(b, percent(p == null ? 0 : p.periodAcc(), totals[i]), color);
            }
            b.append("  ");
        }
        for (int i = 0; i < columns; i++) {
            HistEntry p = g.pair(e, i);
            percentColumn(b, percent(p == null ? 0 : p.period(), totals[i]), color);
        }
        if (showSamples) {
            b.append("  ");
            for (int i = 0; i < columns; i++) {
                HistEntry p = g.pair(e, i);
                b.append(padLeft(Long.toString(p == null ? 0 : p.samples()), SAMPLES_WIDTH, ' '));
            }
        }
        if (showPeriod) {
            b.append("  ");
            for (int i = 0; i < columns; i++) {
                HistEntry p = g.pair(e, i);
                b.append(padLeft(Long.toUnsignedString(p == null ? 0 : p.period()), SAMPLES_WIDTH, ' '));
            }
        }
        for (int i = 0; i < keys.size(); i++) {
            b.append("  ");
            // perf's last field is the sort list's last, printed or elided
            boolean last = keys.get(i) == h.keys().get(h.keys().size() - 1);
            cell(b, keys.get(i), e, width[i], last);
        }
    }

    private static void percentColumn(StringBuilder b, double pct, boolean color) {
        String c = color ? percentColor(pct) : null;
        if (c != null) {
            b.append(c);
        }
        Percent.appendColumn(b, pct);
        if (c != null) {
            b.append(COLOR_RESET);
        }
    }

    /** perf's get_percent_color: red from MIN_RED (5), green above MIN_GREEN (0.5), else none. */
    static String percentColor(double pct) {
        double a = Math.abs(pct);
        return a >= 5.0 ? "\033[31m" : a > 0.5 ? "\033[32m" : null;
    }

    static final String COLOR_RESET = "\033[m";

    /**
     * perf top --stdio's table (hists__fprintf without headers, perf_top__print_sym_table): the
     * first {@code maxRows} rows (0: all) at or above {@code minPercent}, the key columns as wide as
     * the first {@code maxRows} entries need (hists__output_recalc_col_len), each line cut to
     * {@code maxCols - 1} characters, escapes included, as hist_entry__fprintf's snprintf cuts it
     * (0: not cut); percentages colored when {@code color}; call graphs under the rows as report prints them.
     */
    public void printTop(Hists h, int maxRows, int maxCols, double minPercent, boolean color) {
        for (List<String> block : topRows(h, maxRows, maxCols, minPercent, color)) {
            for (String line : block) {
                out.append(line).append('\n');
            }
        }
        out.flush();
    }

    /**
     * {@link #printTop}'s rows, each a block: the entry's line, then its call graph's lines (none
     * without a graph); what a terminal browser shows and expands.
     */
    public List<List<String>> topRows(Hists h, int maxRows, int maxCols, double minPercent, boolean color) {
        GroupHists g = GroupHists.ungrouped(List.of(h)).get(0);
        long total = relative ? h.nonFilteredPeriod() : h.totalPeriod();
        long[] totals = {total};
        List<SortKey> keys = h.keys();
        List<HistEntry> shown = new ArrayList<>();
        for (HistEntry e : h.sorted()) {
            if (!e.filtered()) {
                shown.add(e);
            }
        }
        int[] width = widths(keys, maxRows > 0 && shown.size() > maxRows ? shown.subList(0, maxRows) : shown);
        boolean graph = callGraph.enabled() && h.graphOrder() != null;
        StringBuilder graphText = new StringBuilder();
        CallGraphPrinter printer = new CallGraphPrinter(graphText, callGraph, sortStartsWithSym);
        long minHit = (long) (total * (callGraph.minPercent() / 100));
        StringBuilder b = new StringBuilder(256);
        List<List<String>> blocks = new ArrayList<>();
        int rows = 0;
        for (HistEntry e : shown) {
            if (percent(h.children() ? e.periodAcc() : e.period(), total) < minPercent) {
                continue;
            }
            b.setLength(0);
            defaultRow(b, g, e, totals, keys, width, color);
            if (maxCols > 0 && b.length() > maxCols - 1) {
                b.setLength(maxCols - 1);
            }
            List<String> block = new ArrayList<>();
            block.add(b.toString());
            if (graph) {
                graphText.setLength(0);
                printer.print(e.callchain(), h.totalPeriod(), h.children() ? e.periodAcc() : e.period(), minHit);
                block.addAll(graphText.toString().lines().toList());
            }
            blocks.add(block);
            if (maxRows > 0 && ++rows >= maxRows) {
                break;
            }
        }
        return blocks;
    }

    /**
     * A row with -t: each value as " %.2f%%" or " %d" (a group's members one after another) padded
     * to its column, the columns joined by the separator.
     */
    private void separatedRow(StringBuilder b, GroupHists g, HistEntry e, long[] totals, List<SortKey> keys, int[] width,
            List<SortKey> sortKeys) {
        int columns = g.columns();
        Hists h = g.leader();
        if (h.children()) {
            int at = b.length();
            for (int i = 0; i < columns; i++) {
                HistEntry p = g.pair(e, i);
                Percent.appendF2(b.append(' '), percent(p == null ? 0 : p.periodAcc(), totals[i])).append('%');
            }
            padTo(b, at, PERCENT_WIDTH * columns);
            b.append(separator);
        }
        int at = b.length();
        for (int i = 0; i < columns; i++) {
            HistEntry p = g.pair(e, i);
            Percent.appendF2(b.append(' '), percent(p == null ? 0 : p.period(), totals[i])).append('%');
        }
        padTo(b, at, PERCENT_WIDTH * columns);
        if (showSamples) {
            b.append(separator);
            at = b.length();
            for (int i = 0; i < columns; i++) {
                HistEntry p = g.pair(e, i);
                b.append(' ').append(p == null ? 0 : p.samples());
            }
            padTo(b, at, SAMPLES_WIDTH * columns);
        }
        if (showPeriod) {
            b.append(separator);
            at = b.length();
            for (int i = 0; i < columns; i++) {
                HistEntry p = g.pair(e, i);
                b.append(' ').append(Long.toUnsignedString(p == null ? 0 : p.period()));
            }
            padTo(b, at, SAMPLES_WIDTH * columns);
        }
        char reserved = separator.isEmpty() ? 0 : separator.charAt(0);
        for (int i = 0; i < keys.size(); i++) {
            b.append(separator);
            int from = b.length();
            cell(b, keys.get(i), e, width[i], keys.get(i) == sortKeys.get(sortKeys.size() - 1));
            // repsep_snprintf: the separator's first character inside a value becomes '.'
            for (int c = from; c < b.length(); c++) {
                if (b.charAt(c) == reserved) {
                    b.setCharAt(c, '.');
                }
            }
        }
    }

    /** The -F columns' header and dotted line; an elided key's column is left out (perf_hpp__should_skip). */
    private void fieldHeader(StringBuilder hdr, StringBuilder dots, String sep, int members, List<SortKey> keys, int[] width) {
        boolean first = true;
        for (Field f : fields.columns()) {
            int w;
            String name;
            if (f.hpp() != null) {
                w = f.hpp().width() * members;
                name = f.hpp() == Field.Hpp.OVERHEAD && fields.selfHeader() ? "Self" : f.hpp().header();
            } else {
                int k = keys.indexOf(f.key());
                if (k < 0) {
                    continue;
                }
                w = width[k];
                name = f.key().header();
            }
            if (!first) {
                hdr.append(sep);
                dots.append("  ");
            }
            first = false;
            hdr.append(f.hpp() != null ? padLeft(name, w, ' ') : pad(name, w));
            dots.append(".".repeat(w));
        }
    }

    /**
     * A row of the -F columns: percentages " %6.2f%%" (children "N/A" when not cumulating), counts
     * "%*d", a group's members side by side; with -t each value unaligned and padded to its column
     * (but the last), the columns joined by the separator (as {@link #separatedRow}).
     */
    private void fieldRow(StringBuilder b, GroupHists g, HistEntry e, long[] totals, List<SortKey> keys, int[] width) {
        int members = g.columns();
        boolean children = g.leader().children();
        List<Field> cols = fields.columns();
        char reserved = separator == null || separator.isEmpty() ? 0 : separator.charAt(0);
        boolean first = true;
        if (separator == null) {
            b.append("  ");
        }
        for (int c = 0; c < cols.size(); c++) {
            Field f = cols.get(c);
            int k = f.key() == null ? -1 : keys.indexOf(f.key());
            if (f.key() != null && k < 0) {
                continue;
            }
            if (!first) {
                b.append(separator == null ? "  " : separator);
            }
            first = false;
            int at = b.length();
            if (f.hpp() == null) {
                cell(b, f.key(), e, width[k], c == cols.size() - 1);
                for (int i = at; reserved != 0 && i < b.length(); i++) {
                    if (b.charAt(i) == reserved) {
                        b.setCharAt(i, '.');
                    }
                }
                continue;
            }
            for (int i = 0; i < members; i++) {
                HistEntry p = g.pair(e, i);
                switch (f.hpp()) {
                    case OVERHEAD_CHILDREN -> {
                        if (!children) {
                            // hpp__fmt_acc without cumulated callchains: " %*s", len - 1
                            b.append(' ').append(padLeft("N/A", f.hpp().width() - 1, ' '));
                        } else if (separator == null) {
                            Percent.appendColumn(b, percent(p == null ? 0 : p.periodAcc(), totals[i]));
                        } else {
                            Percent.appendF2(b.append(' '), percent(p == null ? 0 : p.periodAcc(), totals[i])).append('%');
                        }
                    }
                    case OVERHEAD, OVERHEAD_SYS, OVERHEAD_US, OVERHEAD_GUEST_SYS, OVERHEAD_GUEST_US -> {
                        long period = p == null ? 0 : p.period(f.hpp());
                        if (separator == null) {
                            // " %*.2f%%" in the column's width
                            int at0 = b.length();
                            Percent.appendColumn(b, percent(period, totals[i]));
                            for (int pad = f.hpp().width() - (b.length() - at0); pad > 0; pad--) {
                                b.insert(at0, ' ');
                            }
                        } else {
                            Percent.appendF2(b.append(' '), percent(period, totals[i])).append('%');
                        }
                    }
                    case SAMPLE, PERIOD -> {
                        String v = f.hpp() == Field.Hpp.SAMPLE ? Long.toString(p == null ? 0 : p.samples())
                                : Long.toUnsignedString(p == null ? 0 : p.period());
                        b.append(separator == null ? padLeft(v, f.hpp().width(), ' ') : " " + v);
                    }
                }
            }
            // with -t a value is padded to its column unless it ends the row
            if (separator != null && c < cols.size() - 1) {
                padTo(b, at, f.hpp().width() * members);
            }
        }
    }

    /** Spaces after what was appended since {@code at}, up to {@code width} characters. */
    private static void padTo(StringBuilder b, int at, int width) {
        for (int pad = width - (b.length() - at); pad > 0; pad--) {
            b.append(' ');
        }
    }

    /** The single value a filter keeps for {@code k}'s column, or null. */
    private String elided(SortKey k) {
        Set<String> one = switch (k) {
            case COMM -> elide.comms();
            case DSO -> elide.dsos();
            case SYM -> elide.symbols();
            default -> null;
        };
        return one != null && one.size() == 1 ? one.iterator().next() : null;
    }

    /** The keys printed as columns: all but the elided, or all when every one would be. */
    private List<SortKey> shownKeys(List<SortKey> keys) {
        List<SortKey> shown = new ArrayList<>();
        for (SortKey k : keys) {
            if (elided(k) == null) {
                shown.add(k);
            }
        }
        return shown.isEmpty() ? keys : shown;
    }

    /** The entry's value of sort key {@code k} as perf prints it in a column {@code width} wide ({@code last}: the row's last column). */
    public static void cell(StringBuilder b, SortKey k, HistEntry e, int width, boolean last) {
        switch (k) {
            case COMM -> b.append(pad(e.comm(), width));
            case DSO -> b.append(pad(e.dsoText(), width));
            case SYM -> {
                int at = b.length();
                e.appendSymbolText(b, width);
                // hist_entry__snprintf_alignment: every column but the last padded to its width
                for (int pad = last ? 0 : width - (b.length() - at); pad > 0; pad--) {
                    b.append(' ');
                }
            }
            // hist_entry__thread_snprintf: the thread's name now (thread__comm_str), not the sample's
            case PID, TID -> b.append(padLeft(Integer.toString(e.thread().tid()), 7, ' ')).append(':')
                    .append(pad(e.thread().comm(), width - 8));
            case CPU -> b.append(cpuText(e.cpu(), width));
            case DSO_FROM -> b.append(pad(dsoText(e.from().dso()), width));
            case DSO_TO -> b.append(pad(dsoText(e.to().dso()), width));
            case SYMBOL_FROM, SYMBOL_TO -> {
                String s = HistEntry.symbolText(k == SortKey.SYMBOL_FROM ? e.from() : e.to(), width);
                b.append(s);
                if (!last && s.length() < width) {
                    b.append(" ".repeat(width - s.length()));
                }
            }
            // hist_entry__cycles_snprintf: "%-*hd", or "-" for none
            case CYCLES -> b.append(pad(e.cycles() == 0 ? "-" : Short.toString((short) e.cycles()), width));
            // perf computes it from the target symbol's annotation (its disassembly), which jperf
            // does not make: perf's value when it has no annotation either (e.g. no binary)
            case IPC_LBR -> b.append(pad(e.symbol() == null ? "-" : "0.00  [  0.0%]", width));
            // "%-*.*s" of a string perf made only if a comparison needed it (glibc prints "(null)")
            case SRCLINE_FROM -> b.append(pad(e.srclineFrom() == null ? "(null)" : e.srclineFrom(), width));
            case SRCLINE_TO -> b.append(pad(e.srclineTo() == null ? "(null)" : e.srclineTo(), width));
            // "%-.*s": made now if no comparison made it, cut to the width (padded unless last)
            case SRCLINE -> b.append(last ? cut(e.srcline(), width) : pad(e.srcline(), width));
            case SRCFILE -> b.append(last ? cut(e.srcfile(), width) : pad(e.srcfile(), width));
        }
    }

    private static String dsoText(Dso d) {
        return d == null ? "[unknown]" : d.shortName();
    }

    /** printf("%*.*d", width, width, cpu): at least {@code width} digits, so -1 prints "-001". */
    static String cpuText(int cpu, int width) {
        String digits = padLeft(Integer.toString(Math.abs(cpu)), width, '0');
        return padLeft(cpu < 0 ? "-" + digits : digits, width, ' ');
    }

    /** perf's column widths (hists__calc_col_len over {@code rows}): the longest value, at least the header. */
    public static int[] widths(List<SortKey> keys, List<HistEntry> rows) {
        int comm = 0;
        int dso = 0;
        int sym = 0;
        boolean unresolved = false;
        for (HistEntry e : rows) {
            // hists__calc_col_len: the Command width is that of the thread's name now
            // (thread__comm_len), though the column prints the sample's (cut to the width)
            comm = Math.max(comm, e.thread().comm().length());
            if (e.dso() != null) {
                dso = Math.max(dso, e.dso().shortName().length());
            }
            if (e.symbol() != null) {
                sym = Math.max(sym, e.symbol().name().length() + 4);
            } else {
                sym = Math.max(sym, 16 + 4 + 2);
                unresolved = true;
            }
        }
        if (unresolved) {
            dso = Math.max(dso, 16);
        }
        // hists__calc_col_len of a branch_info: a resolved end widens its symbol and DSO columns,
        // an unresolved one sets the symbol's to an address's and the DSO's to at least 16
        int[] branchSym = new int[2];
        int[] branchDso = new int[2];
        int[] srcline = new int[4];
        for (HistEntry e : rows) {
            srcline[2] = Math.max(srcline[2], e.srclineWidth());
            srcline[3] = Math.max(srcline[3], e.srcfileWidth());
            if (e.from() == null) {
                continue;
            }
            srcline[0] = Math.max(srcline[0], e.srclineFromWidth());
            srcline[1] = Math.max(srcline[1], e.srclineToWidth());
            for (int side = 0; side < 2; side++) {
                Frame f = side == 0 ? e.from() : e.to();
                if (f.symbol() != null) {
                    branchSym[side] = Math.max(branchSym[side], f.symbol().name().length() + 4);
                    branchDso[side] = Math.max(branchDso[side], dsoText(f.dso()).length());
                } else {
                    branchSym[side] = Math.max(branchSym[side], 16 + 4 + 2);
                    branchDso[side] = Math.max(branchDso[side], 16);
                }
            }
        }
        int[] w = new int[keys.size()];
        for (int i = 0; i < w.length; i++) {
            SortKey k = keys.get(i);
            int v = switch (k) {
                case COMM -> comm;
                case DSO -> dso;
                case SYM -> sym;
                case PID, TID -> comm + 8;
                case CPU -> 3;
                case SYMBOL_FROM -> branchSym[0];
                case SYMBOL_TO -> branchSym[1];
                case DSO_FROM -> branchDso[0];
                case DSO_TO -> branchDso[1];
                case CYCLES, IPC_LBR -> 0;
                case SRCLINE_FROM -> srcline[0];
                case SRCLINE_TO -> srcline[1];
                case SRCLINE -> srcline[2];
                case SRCFILE -> srcline[3];
            };
            w[i] = Math.max(v, k.header().length());
        }
        return w;
    }

    static double percent(long period, long total) {
        return total == 0 ? 0 : period * 100.0 / total;
    }

    /** printf's "%*d" / "%0*d" for a non-negative number. */
    private static String padLeft(String s, int width, char fill) {
        if (s.length() >= width) {
            return s;
        }
        return String.valueOf(fill).repeat(width - s.length()) + s;
    }

    private static String cut(String s, int width) {
        return s.length() > width ? s.substring(0, width) : s;
    }

    private static String pad(String s, int width) {
        if (s.length() >= width) {
            return s.substring(0, width);
        }
        return s + " ".repeat(width - s.length());
    }
}
