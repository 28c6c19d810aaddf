package dev.jperf.report.tui;

import dev.jperf.format.PerfDataFile;
import dev.jperf.report.Report;
import dev.jperf.report.annotate.Annotate;
import dev.jperf.report.session.SampleFilter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * jperf report's rows for the {@link Browser}, as perf report's TUI shows them: the title
 * "Samples: N of event 'E', Event count (approx.): C" (and the zoom), the columns' header, the
 * rows of the stdio report (its first event) with the fold mark in place of its first column
 * when there are call chains, their call graphs to expand. The rows are the stdio report's own
 * (report's one row code), made again for each zoom, the zoom being report's --comms/--dsos filter.
 */
public final class ReportBrowserModel implements Browser.Model {
    private final Supplier<PerfDataFile> open;
    private final Report.Options options;
    private final ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    private final Map<List<String>, String[]> cells = new IdentityHashMap<>();
    private String title = "";
    private String header;
    private boolean folds;
    private List<List<String>> rows = List.of();
    /** The thread (command) and DSO zoomed into, or null. */
    private String thread;
    private String dso;
    /** The columns of the sort keys in the stdio rows: comm, dso, symbol start (or -1) and where each ends. */
    private int[] commAt;
    private int[] dsoAt;
    private int symAt = -1;

    /** Reads the report once (a bad file fails here, before the terminal is taken). */
    public ReportBrowserModel(Supplier<PerfDataFile> open, Report.Options options) {
        this.open = open;
        this.options = options;
        load();
    }

    /** What reading the file said (shown once the browser is left). */
    public String warnings() {
        return warnings.toString(StandardCharsets.UTF_8);
    }

    private void load() {
        Report.Options o = options;
        if (thread != null || dso != null) {
            SampleFilter f = o.filter();
            if (thread != null) {
                f = f.withComms(Set.of(thread));
            }
            if (dso != null) {
                f = f.withDsos(Set.of(dso));
            }
            // perf's thread zoom keeps the Command column, its DSO zoom leaves out the Shared Object
            // one (both zooms at once: every column kept)
            o = o.toBuilder().filter(f).elide(thread == null).build();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(warnings, true, StandardCharsets.UTF_8);
        try (PerfDataFile f = open.get()) {
            PrintStream p = new PrintStream(out, false, StandardCharsets.UTF_8);
            Report.run(f, o, p, err);
            p.flush();
            for (String w : f.warnings()) {
                err.println("warning: " + w);
            }
        }
        parse(out.toString(StandardCharsets.UTF_8).lines().toList());
    }

    /** The stdio report's first event: its title, header and row blocks. */
    private void parse(List<String> lines) {
        String samples = null;
        String count = null;
        String hdr = null;
        List<List<String>> blocks = new ArrayList<>();
        cells.clear();
        List<String> block = null;
        boolean graph = false;
        int i = 0;
        for (; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.startsWith("# Samples: ")) {
                if (samples != null) {
                    break;
                }
                samples = l.substring(2);
            } else if (l.startsWith("# Event count (approx.): ")) {
                count = l.substring(2);
            } else if (l.startsWith("# ..") && i > 0) {
                hdr = lines.get(i - 1);
                columns(hdr);
            } else if (l.startsWith("#")) {
                continue;
            } else if (l.isBlank()) {
                block = null;
            } else if (hdr != null && (block == null || isRow(l))) {
                block = new ArrayList<>();
                block.add(l);
                blocks.add(block);
                cells.put(block, cellsOf(l));
            } else if (block != null) {
                block.add(l);
                graph = true;
            }
        }
        folds = graph || (hdr != null && hdr.startsWith("# Children"));
        StringBuilder t = new StringBuilder(samples == null ? "" : samples);
        if (count != null) {
            t.append(", ").append(count);
        }
        if (thread != null) {
            t.append(", Thread: ").append(thread);
        }
        if (dso != null) {
            t.append(", DSO: ").append(dso);
        }
        title = t.toString();
        int cut = folds ? 1 : 2;
        header = hdr == null ? null : (folds ? "  " : "") + hdr.substring(Math.min(2, hdr.length()));
        List<List<String>> shown = new ArrayList<>(blocks.size());
        for (List<String> b : blocks) {
            List<String> s = new ArrayList<>(b.size());
            s.add(b.get(0).substring(Math.min(cut, b.get(0).length())));
            s.addAll(b.subList(1, b.size()));
            cells.put(s, cells.remove(b));
            shown.add(s);
        }
        rows = shown;
    }

    /** A row line of the stdio report (not a call graph's): spaces, then a percentage. */
    private static boolean isRow(String l) {
        int i = 0;
        while (i < l.length() && l.charAt(i) == ' ') {
            i++;
        }
        int d = i;
        while (i < l.length() && (Character.isDigit(l.charAt(i)) || l.charAt(i) == '.')) {
            i++;
        }
        return i > d && i < l.length() && l.charAt(i) == '%';
    }

    /** Where the Command, Shared Object and Symbol columns are in the header (and so in the rows). */
    private void columns(String hdr) {
        commAt = span(hdr, "Command");
        dsoAt = span(hdr, "Shared Object");
        int s = hdr.indexOf("  Symbol");
        symAt = s < 0 ? -1 : s + 2;
    }

    private static int[] span(String hdr, String name) {
        int at = hdr.indexOf("  " + name);
        if (at < 0) {
            return null;
        }
        at += 2;
        int end = hdr.indexOf("  ", at + name.length());
        while (end >= 0 && end + 2 < hdr.length() && hdr.charAt(end + 2) == ' ') {
            end++;
        }
        return new int[] {at, end < 0 ? hdr.length() : end};
    }

    /** A row's command, DSO and symbol (each null when the sort has no such key). */
    private String[] cellsOf(String row) {
        String comm = commAt == null ? null : cell(row, commAt[0], commAt[1]);
        String d = dsoAt == null ? null : cell(row, dsoAt[0], dsoAt[1]);
        String sym = symAt < 0 || symAt >= row.length() ? null : row.substring(symAt).strip();
        if (sym != null && sym.length() > 4 && sym.charAt(0) == '[' && sym.charAt(2) == ']') {
            sym = sym.substring(4);
        }
        return new String[] {comm, d, sym};
    }

    private static String cell(String row, int from, int to) {
        return from >= row.length() ? null : row.substring(from, Math.min(to, row.length())).strip();
    }

    @Override
    public String title() {
        return title;
    }

    @Override
    public String header() {
        return header;
    }

    @Override
    public boolean folds() {
        return folds;
    }

    @Override
    public List<List<String>> rows(int maxCols) {
        return rows;
    }

    @Override
    public long refreshNs() {
        return 0;
    }

    @Override
    public void refreshed() {
    }

    @Override
    public String keys() {
        return "keys: up/down j/k, Enter/+ expand, a annotate, t/d zoom thread/DSO, / filter, q quit";
    }

    @Override
    public boolean zoom(char kind, List<String> row) {
        String[] c = row == null ? null : cells.get(row);
        if (kind == 't') {
            if (thread == null && (c == null || c[0] == null)) {
                return false;
            }
            thread = thread != null ? null : c[0];
        } else if (kind == 'd') {
            if (dso == null && (c == null || c[1] == null)) {
                return false;
            }
            dso = dso != null ? null : c[1];
        } else {
            return false;
        }
        load();
        return true;
    }

    @Override
    public List<String> annotate(List<String> row) {
        String[] c = cells.get(row);
        if (c == null || c[2] == null) {
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PerfDataFile f = open.get()) {
            Annotate.run(f, new Annotate.Options(c[2], false, options.kallsyms(), options.buildIdDir(),
                    c[1] == null ? null : Set.of(c[1]), null, false,
                    new Annotate.Display(true, false, false, 0, options.symfs(), false)),
                    out, new PrintStream(err, true, StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            // a function that cannot be annotated says why in the view, as perf's TUI does in a box
            return List.of(c[2] + ": " + e.getMessage());
        }
        List<String> lines = new ArrayList<>();
        for (String l : (out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8)).split("\n")) {
            lines.add(expandTabs(l));
        }
        while (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        return lines.isEmpty() ? List.of(c[2] + ": nothing to annotate") : lines;
    }

    /** Tabs as the terminal shows them (every 8 columns), so that a line is cut at the screen's width. */
    static String expandTabs(String l) {
        if (l.indexOf('\t') < 0) {
            return l;
        }
        StringBuilder b = new StringBuilder(l.length() + 16);
        for (int i = 0; i < l.length(); i++) {
            char ch = l.charAt(i);
            if (ch == '\t') {
                do {
                    b.append(' ');
                } while (b.length() % 8 != 0);
            } else {
                b.append(ch);
            }
        }
        return b.toString();
    }
}
