package dev.jperf.report.diff;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.header.EventDesc;
import dev.jperf.report.Report;
import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.HistEntry;
import dev.jperf.report.aggregate.Hists;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.report.output.Percent;
import dev.jperf.report.output.StdioReport;
import dev.jperf.report.session.SampleFilter;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code perf diff BASE NEW...} (builtin-diff.c of perf 6.1): each of the baseline's events against
 * every other file's event of the same type and config; entries collapsed by the sort keys (dso,sym
 * by default) and paired as perf's hists__match pairs them, the other files' unpaired entries
 * linked in as dummies (hists__link, no baseline share), then perf's columns (Baseline, the -c
 * column per file, -F's formula, -p's periods) and its sort list: the -o file's change first,
 * the baseline's period, each file's change, then the sort keys.
 */
public final class DiffReport {
    private static final List<SortKey> DEFAULT_SORT = SortKey.parse("dso,sym");

    /** -c/--compute: what the change column shows and orders the rows by. */
    public enum Compute {
        /** The new share minus the baseline's, by its signed value. */
        DELTA("Delta", 7),
        /** The same, by its absolute value (perf's default). */
        DELTA_ABS("Delta Abs", 7),
        /** The new period over the baseline's. */
        RATIO("Ratio", 14),
        /** The new period times w2 minus the baseline's times w1. */
        WDIFF("Weighted diff", 14);

        final String header;
        final int width;

        Compute(String header, int width) {
            this.header = header;
            this.width = width;
        }
    }

    /**
     * What perf diff's options ask for.
     *
     * @param compute -c
     * @param w1 -c wdiff:w1,w2's baseline weight
     * @param w2 its weight of the other files
     * @param order -o: the file whose change orders the rows first (0: none)
     * @param periods -p
     * @param formula -F
     * @param baselineOnly -b: only the baseline's entries that have a pair
     * @param relative --percentage relative: shares of the samples the filters keep
     * @param separator -t, or null
     * @param quiet -q
     * @param verbose -v: the data files listed
     * @param sort -s, or null for dso,sym
     * @param bpfByName beyond perf: a BPF program's functions paired across files by program
     *     and function name (their JIT addresses differ from run to run)
     */
    public record View(Compute compute, long w1, long w2, int order, boolean periods, boolean formula,
            boolean baselineOnly, boolean relative, String separator, boolean quiet, boolean verbose,
            List<SortKey> sort, boolean bpfByName) {
        public static final View DEFAULT = new View(Compute.DELTA_ABS, 0, 0, 1, false, false, false, false, null, false,
                false, null, true);

        List<SortKey> keys() {
            return sort == null ? DEFAULT_SORT : sort;
        }
    }

    private DiffReport() {
    }

    /** One input: the file, its name as perf lists it (-v, more than two files) and its options. */
    public record Input(PerfDataFile file, String path, Report.Options options) {
    }

    /** The entries of one key in one file merged: the one shown (the lowest address) and their period. */
    private static final class Merged {
        HistEntry shown;
        long period;
        /** perf's he->filtered (--comms, --dsos...): the entry counts and pairs but is not printed. */
        boolean filtered = true;
    }

    /** One row: the baseline's entry (null for a dummy) and each other file's pair (null: none). */
    private static final class Row {
        final Merged[] in;
        final double[] value;
        /** The baseline's period as a share of its total. */
        double baseShare;

        Row(int files) {
            in = new Merged[files];
            value = new double[files];
        }

        boolean dummy() {
            return in[0] == null;
        }

        boolean hasPairs() {
            for (int i = 1; i < in.length; i++) {
                if (in[i] != null) {
                    return true;
                }
            }
            return false;
        }

        HistEntry any() {
            return first().shown;
        }

        /** The baseline's entry, or the one the dummy was made for. */
        Merged first() {
            for (Merged m : in) {
                if (m != null) {
                    return m;
                }
            }
            throw new IllegalStateException("empty row");
        }

        long basePeriod() {
            return in[0] == null ? 0 : in[0].period;
        }
    }

    /** Prints the difference of every other input against the first. */
    public static void print(List<Input> inputs, View view, PrintStream out) {
        if (view.order() < 0 || view.order() >= inputs.size()) {
            throw new IllegalArgumentException("-o " + view.order() + ": Order option out of limit (the files are numbered 0 to "
                    + (inputs.size() - 1) + ")");
        }
        List<List<Hists>> all = new ArrayList<>();
        for (Input in : inputs) {
            all.add(aggregate(in.file(), in.options(), view.keys()));
        }
        boolean first = true;
        for (Hists b : all.get(0)) {
            Hists[] hists = new Hists[inputs.size()];
            hists[0] = b;
            for (int i = 1; i < inputs.size(); i++) {
                for (Hists h : all.get(i)) {
                    if (h.event().attr().type() == b.event().attr().type() && h.event().attr().config() == b.event().attr().config()) {
                        hists[i] = h;
                        break;
                    }
                }
            }
            if (!view.quiet()) {
                out.print((first ? "" : "\n") + "# Event '" + b.event().name() + "'\n#\n");
            }
            first = false;
            if (view.verbose() || inputs.size() > 2 && !view.quiet()) {
                out.println("# Data files:");
                for (int i = 0; i < inputs.size(); i++) {
                    out.println("#  [" + i + "] " + inputs.get(i).path() + " " + (i == 0 ? "(Baseline)" : ""));
                }
                out.println("#");
            }
            section(hists, view, inputs.get(0).options().filter(), out);
        }
        out.flush();
    }

    private static List<Hists> aggregate(PerfDataFile file, Report.Options template, List<SortKey> keys) {
        Report.Options o = template.toBuilder().sort(keys).children(false).callGraph(CallchainParams.NO_GRAPH).build();
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
            out.add(found != null ? found : new Hists(e, keys, false));
        }
        return out;
    }

    /**
     * What perf diff's collapse compares for each sort key: the DSO's short name, the symbol's name
     * within its DSO (every address without a symbol in a DSO being one entry), the command, the
     * thread, the CPU, the source line.
     */
    private static List<Object> key(HistEntry e, List<SortKey> keys, boolean bpfByName) {
        Object[] k = new Object[keys.size()];
        for (int i = 0; i < k.length; i++) {
            k[i] = switch (keys.get(i)) {
                case DSO -> dsoKey(e, bpfByName);
                case SYM -> symKey(e, keys.contains(SortKey.DSO), bpfByName);
                case COMM -> e.comm();
                case PID, TID -> e.thread().tid();
                case CPU -> e.cpu();
                case SRCLINE -> e.srcline();
                case SRCFILE -> e.srcfile();
                default -> throw new IllegalArgumentException("--sort " + keys.get(i).name().toLowerCase(java.util.Locale.ROOT)
                        + ": a branch mode key, which perf diff does not take");
            };
        }
        return Arrays.asList(k);
    }

    /**
     * The symbol: by name within its DSO when dso is a sort key too; without it, as perf's
     * _sort__sym_cmp, by its start and end whatever the DSO (a BPF function still by name).
     */
    private static Object symKey(HistEntry e, boolean withDso, boolean bpfByName) {
        String dso = dsoKey(e, bpfByName);
        if (e.symbol() == null) {
            // the addresses without a symbol: one entry per DSO, or one in all without dso
            return Arrays.asList(withDso ? dso : null, null);
        }
        if (dso != null && dso.startsWith("bpf_prog_")) {
            // a JITed function: its address is of the run, its DSO (bpf_prog_TAG_NAME) says which it is
            return Arrays.asList(dso, bpfByName ? bpfName(e.symbol().name()) : e.symbol().name());
        }
        if (withDso) {
            return Arrays.asList(dso, e.symbol().name());
        }
        return Arrays.asList(e.symbol().start(), e.symbol().end());
    }

    /**
     * The DSO's short name; beyond perf, a BPF program's DSO (perf names it bpf_prog_TAG_NAME) by
     * its program name: the tag hashes the instructions, which the verifier rewrites with the map
     * addresses of the run, so the one program is another DSO in each recording.
     */
    private static String dsoKey(HistEntry e, boolean bpfByName) {
        if (e.dso() == null) {
            return null;
        }
        String name = e.dso().shortName();
        return bpfByName ? bpfName(name) : name;
    }

    /** bpf_prog_TAG_NAME without its tag (bpf_prog_*_NAME); any other name as it is. */
    private static String bpfName(String name) {
        if (name.startsWith("bpf_prog_") && name.length() > 26 && name.charAt(25) == '_') {
            return "bpf_prog_*_" + name.substring(26);
        }
        return name;
    }

    /** The file's entries collapsed by {@link #key}, in first-seen order. */
    private static LinkedHashMap<List<Object>, Merged> collapse(Hists h, View view) {
        LinkedHashMap<List<Object>, Merged> out = new LinkedHashMap<>();
        if (h == null) {
            return out;
        }
        for (HistEntry e : h.sorted()) {
            Merged m = out.computeIfAbsent(key(e, view.keys(), view.bpfByName()), k -> new Merged());
            if (m.shown == null || Long.compareUnsigned(e.ip(), m.shown.ip()) < 0 && e.symbol() == null) {
                m.shown = e;
            }
            m.period += e.period();
            m.filtered &= e.filtered();
        }
        return out;
    }

    private static long total(Hists h, View view) {
        // diff__process_sample_event counts the periods of the samples not filtered themselves
        return h == null ? 0 : view.relative() ? h.unfilteredSamplesPeriod() : h.totalPeriod();
    }

    private static void section(Hists[] hists, View view, SampleFilter filter, PrintStream out) {
        int files = hists.length;
        long[] totals = new long[files];
        for (int i = 0; i < files; i++) {
            totals[i] = total(hists[i], view);
        }
        LinkedHashMap<List<Object>, Row> rows = new LinkedHashMap<>();
        for (Map.Entry<List<Object>, Merged> e : collapse(hists[0], view).entrySet()) {
            Row r = new Row(files);
            r.in[0] = e.getValue();
            rows.put(e.getKey(), r);
        }
        for (int i = 1; i < files; i++) {
            for (Map.Entry<List<Object>, Merged> e : collapse(hists[i], view).entrySet()) {
                Row r = rows.get(e.getKey());
                if (r == null) {
                    if (view.baselineOnly()) {
                        continue;
                    }
                    // hists__link: a dummy entry in the baseline for the pair alone
                    r = new Row(files);
                    rows.put(e.getKey(), r);
                }
                r.in[i] = e.getValue();
            }
        }
        List<Row> list = new ArrayList<>();
        long removed = 0;
        for (Row r : rows.values()) {
            if (view.baselineOnly() && !r.hasPairs()) {
                removed += r.basePeriod();
                continue;
            }
            // precompute: the change of the shares of the totals as read
            double share = percent(r.basePeriod(), totals[0]);
            for (int i = 1; i < files; i++) {
                if (r.in[i] != null) {
                    r.value[i] = compute(view, r.basePeriod(), share, r.in[i].period, totals[i]);
                }
            }
            list.add(r);
        }
        // output_resort then sums the baseline's entries anew: the share and formula of -b are of
        // the entries it kept, those of --percentage relative of the ones not filtered
        totals[0] -= removed;
        if (view.relative()) {
            totals[0] = 0;
            for (Row r : list) {
                if (r.in[0] != null && !r.in[0].filtered) {
                    totals[0] += r.basePeriod();
                }
            }
        }
        List<Row> visible = new ArrayList<>();
        for (Row r : list) {
            r.baseShare = percent(r.basePeriod(), totals[0]);
            if (!r.first().filtered) {
                visible.add(r);
            }
        }
        list = visible;
        list.sort(order(view, files));
        List<HistEntry> shown = new ArrayList<>();
        for (Row r : list) {
            shown.add(r.any());
        }
        List<SortKey> keys = shownKeys(view.keys(), filter);
        SortKey lastKey = view.keys().get(view.keys().size() - 1);
        int[] keyWidth = StdioReport.widths(keys, shown);
        List<Column> columns = columns(view, files);
        String sep = view.separator();
        if (!view.quiet()) {
            StringBuilder hdr = new StringBuilder("# ");
            StringBuilder dots = new StringBuilder("# ");
            boolean firstCol = true;
            for (Column c : columns) {
                if (!firstCol) {
                    hdr.append(sep == null ? "  " : sep);
                    dots.append("  ");
                }
                firstCol = false;
                hdr.append(padLeft(c.header, c.width));
                dots.append(".".repeat(c.width));
            }
            for (int k = 0; k < keys.size(); k++) {
                hdr.append(sep == null ? "  " : sep).append(pad(keys.get(k).header(), keyWidth[k]));
                dots.append("  ").append(".".repeat(keyWidth[k]));
            }
            out.println(hdr);
            if (sep == null) {
                out.println(dots);
                out.println("#");
            }
        }
        StringBuilder b = new StringBuilder();
        char reserved = sep == null || sep.isEmpty() ? 0 : sep.charAt(0);
        for (Row r : list) {
            b.setLength(0);
            boolean firstCol = true;
            for (Column c : columns) {
                if (sep == null || !firstCol) {
                    b.append(sep == null ? "  " : sep);
                }
                firstCol = false;
                String v = c.value(r, view, totals);
                if (sep == null && c.kind.equals("compute") && view.compute() == Compute.WDIFF && r.in[c.file] != null && !r.dummy()) {
                    // hpp__color_wdiff prints "%14ld" whatever the column's width; the alignment
                    // pads it to the column on the right
                    b.append(pad(v, c.width));
                } else {
                    // with -t each value is left-aligned in its column
                    b.append(sep == null ? padLeft(v, c.width) : pad(v, c.width));
                }
            }
            for (int k = 0; k < keys.size(); k++) {
                b.append(sep == null ? "  " : sep);
                int from = b.length();
                StdioReport.cell(b, keys.get(k), r.any(), keyWidth[k], keys.get(k) == lastKey);
                // repsep_snprintf: the separator's first character inside a value becomes '.'
                for (int c = from; reserved != 0 && c < b.length(); c++) {
                    if (b.charAt(c) == reserved) {
                        b.setCharAt(c, '.');
                    }
                }
            }
            out.println(b);
        }
    }

    /**
     * sort__setup_elide: a key whose filter (--comms, --dsos, --symbols) names one value is left
     * out, unless every key would be.
     */
    private static List<SortKey> shownKeys(List<SortKey> keys, SampleFilter filter) {
        List<SortKey> out = new ArrayList<>();
        for (SortKey k : keys) {
            java.util.Set<String> one = switch (k) {
                case COMM -> filter.comms();
                case DSO -> filter.dsos();
                case SYM -> filter.symbols();
                default -> null;
            };
            if (one == null || one.size() != 1) {
                out.add(k);
            }
        }
        return out.isEmpty() ? keys : out;
    }

    private static double compute(View view, long basePeriod, double baseShare, long period, long total) {
        return switch (view.compute()) {
            case DELTA, DELTA_ABS -> percent(period, total) - baseShare;
            // compute_ratio: a baseline of 0 (a dummy) counts as 1
            case RATIO -> (double) period / (basePeriod == 0 ? 1 : basePeriod);
            case WDIFF -> period * view.w2() - basePeriod * view.w1();
        };
    }

    /** A column of the diff's own (perf's diff_hpp_fmt): its file, what it shows, header and width. */
    private record Column(int file, String kind, String header, int width) {
        String value(Row r, View view, long[] totals) {
            boolean sep = view.separator() != null;
            Merged pair = r.in[file];
            switch (kind) {
                case "baseline":
                    if (r.dummy()) {
                        return " ";
                    }
                    return sep ? Percent.f2(r.baseShare) : padLeft(Percent.f2(r.baseShare), 6) + "%";
                case "base period":
                    return Long.toUnsignedString(r.basePeriod());
                default:
                    break;
            }
            if (pair == null) {
                return " ";
            }
            switch (kind) {
                case "period":
                    return Long.toUnsignedString(pair.period);
                case "formula":
                    return formula(r, view, totals);
                default:
                    break;
            }
            double v = r.value[file];
            return switch (view.compute()) {
                case DELTA, DELTA_ABS -> (v < 0 ? "-" : "+") + Percent.f2(Math.abs(v)) + "%";
                case RATIO -> r.dummy() ? "N/A" : v > 0 ? padLeft(f6(v), 14) : " ";
                // the colour printer (stdio without -t) prints 0, hpp__entry_pair (-t) nothing
                case WDIFF -> r.dummy() ? "N/A" : v != 0 || !sep ? padLeft(Long.toString((long) v), 14) : " ";
            };
        }

        private String formula(Row r, View view, long[] totals) {
            long base = r.basePeriod();
            long p = r.in[file].period;
            return switch (view.compute()) {
                case DELTA, DELTA_ABS -> "(" + Long.toUnsignedString(p) + " * 100 / " + Long.toUnsignedString(totals[file]) + ") - ("
                        + Long.toUnsignedString(base) + " * 100 / " + Long.toUnsignedString(totals[0]) + ")";
                // "%.0F / %.0F" of the periods as doubles
                case RATIO -> f0(unsignedDouble(p)) + " / " + f0(unsignedDouble(base));
                case WDIFF -> "(" + Long.toUnsignedString(p) + " * " + view.w2() + ") - (" + Long.toUnsignedString(base) + " * "
                        + view.w1() + ")";
            };
        }
    }

    /** perf's columns in its order (ui_init): per file its change column (the baseline's share for the first), -F's formula, -p's period. */
    private static List<Column> columns(View view, int files) {
        List<Column> out = new ArrayList<>();
        for (int i = 0; i < files; i++) {
            if (i == 0) {
                out.add(column(0, "baseline", "Baseline", 0, files));
            } else {
                out.add(column(i, "compute", view.compute().header, view.compute().width, files));
            }
            if (view.formula() && i > 0) {
                out.add(column(i, "formula", "Formula", 70, files));
            }
            if (view.periods()) {
                out.add(i == 0 ? column(0, "base period", "Base period", 14, files) : column(i, "period", "Period", 14, files));
            }
        }
        return out;
    }

    /** init_header: with more than two files each header says its file ("Delta Abs/2"); as wide as its header at least. */
    private static Column column(int file, String kind, String name, int width, int files) {
        String header = files > 2 ? name + "/" + file : name;
        return new Column(file, kind, header, Math.max(width, header.length()));
    }

    /**
     * perf's sort list in diff mode: the -o file's change (pairs first; for ratio and wdiff the
     * baseline's entries before dummies; largest first), the baseline's period, each file's change,
     * then the sort keys.
     */
    private static Comparator<Row> order(View view, int files) {
        Compute c = view.compute();
        int idx = view.order();
        return (x, y) -> {
            int r;
            if (idx != 0) {
                Merged px = x.in[idx];
                Merged py = y.in[idx];
                if (px != null || py != null) {
                    if (px == null || py == null) {
                        return px != null ? -1 : 1;
                    }
                    boolean noBaseline = c != Compute.DELTA && c != Compute.DELTA_ABS;
                    if (noBaseline && x.dummy() != y.dummy()) {
                        return x.dummy() ? 1 : -1;
                    }
                    // two dummies: equal here (their ratio or wdiff means nothing)
                    r = noBaseline && x.dummy() ? 0 : compareValues(c, x.value[idx], y.value[idx]);
                    if (r != 0) {
                        return r;
                    }
                }
            }
            r = Long.compareUnsigned(y.basePeriod(), x.basePeriod());
            if (r != 0) {
                return r;
            }
            boolean hx = x.hasPairs();
            boolean hy = y.hasPairs();
            for (int i = 1; i < files && (hx || hy); i++) {
                if (hx != hy) {
                    return hx ? -1 : 1;
                }
                Merged px = x.in[i];
                Merged py = y.in[i];
                if (px == null && py == null) {
                    continue;
                }
                if (px == null || py == null) {
                    return px != null ? -1 : 1;
                }
                r = compareValues(c, x.value[i], y.value[i]);
                if (r != 0) {
                    return r;
                }
            }
            return compareKeys(view.keys(), x.any(), y.any());
        };
    }

    /** Largest first (the absolute value for delta-abs). */
    private static int compareValues(Compute c, double x, double y) {
        if (c == Compute.DELTA_ABS) {
            return Double.compare(Math.abs(y), Math.abs(x));
        }
        return Double.compare(y, x);
    }

    /** The sort keys' own order (perf's se_sort): names ascending, a symbol before an address, numbers ascending. */
    private static int compareKeys(List<SortKey> keys, HistEntry x, HistEntry y) {
        for (SortKey k : keys) {
            int c = switch (k) {
                case DSO -> {
                    // sort__dso_cmp as the output sort: names ascending, an entry without DSO last
                    if (x.dso() == null || y.dso() == null) {
                        yield x.dso() == null ? (y.dso() == null ? 0 : 1) : -1;
                    }
                    yield x.dso().shortName().compareTo(y.dso().shortName());
                }
                case SYM -> {
                    if (x.symbol() == null || y.symbol() == null) {
                        yield x.symbol() == null ? (y.symbol() == null ? 0 : 1) : -1;
                    }
                    yield x.symbol().name().compareTo(y.symbol().name());
                }
                case COMM -> x.comm().compareTo(y.comm());
                case PID, TID -> Integer.compare(x.thread().tid(), y.thread().tid());
                case CPU -> Integer.compare(x.cpu(), y.cpu());
                case SRCLINE -> x.srcline().compareTo(y.srcline());
                case SRCFILE -> x.srcfile().compareTo(y.srcfile());
                default -> 0;
            };
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static double percent(long period, long total) {
        return total == 0 ? 0 : unsignedDouble(period) * 100.0 / unsignedDouble(total);
    }

    private static double unsignedDouble(long v) {
        return v >= 0 ? v : (double) (v >>> 1) * 2.0;
    }

    /** printf("%.6F"): the exact binary value rounded half-even, as glibc. */
    private static String f6(double v) {
        return new BigDecimal(v).setScale(6, RoundingMode.HALF_EVEN).toPlainString();
    }

    private static String f0(double v) {
        return new BigDecimal(v).setScale(0, RoundingMode.HALF_EVEN).toPlainString();
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }

    private static String padLeft(String s, int width) {
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }
}
