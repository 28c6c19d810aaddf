package dev.jperf.report.tui;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * A terminal browser of report rows in the spirit of perf's TUI (ANSI output, keys from a
 * terminal in character mode): a title line, then the rows, the selected one in reverse video;
 * up/down or k/j move, PgUp/PgDn page, Enter or + expands the selected row's call chains (its
 * block's other lines), / filters the rows by a text (Enter ends it, an empty one clears it),
 * a shows the model's annotation of the row's symbol, t/d zoom into its thread/DSO, q quits. Its rows come from a {@link Model} (top's live hists, refreshed every interval).
 */
public final class Browser {
    /** What the browser shows. */
    public interface Model {
        /** The title line (top: perf's header line). */
        String title();

        /** The rows: each a block, its first line the row, the rest what expanding it shows. */
        List<List<String>> rows(int maxCols);

        /** Nanoseconds between refreshes (the rows change), or 0 for rows that never change. */
        long refreshNs();

        /** Called at each refresh, before the rows are read again (top: the entries age). */
        void refreshed();

        /** The columns' header line under the title, or null for none. */
        default String header() {
            return null;
        }

        /** Whether each row has a fold mark (+/-) before it; else rows are shown as they are. */
        default boolean folds() {
            return true;
        }

        /** The annotation of a row's symbol ('a'), its lines, or null when it has none. */
        default List<String> annotate(List<String> row) {
            return null;
        }

        /**
         * Zooms into the row's thread ('t') or DSO ('d'), or out of it when zoomed: true when the
         * rows changed (they are read again).
         */
        default boolean zoom(char kind, List<String> row) {
            return false;
        }

        /** The keys the status line lists. */
        default String keys() {
            return "keys: up/down j/k, Enter/+ expand, / filter, q quit";
        }
    }

    private final Model model;
    private final PrintStream out;
    private List<List<String>> rows = List.of();
    private final Set<String> expanded = new HashSet<>();
    private int selected;
    private int top;
    private String filter = "";
    /** The filter being typed after '/', or null. */
    private StringBuilder typing;
    /** The annotation shown in place of the rows ('a'), or null; its first line shown. */
    private List<String> text;
    private int textTop;
    /** The width the rows were last read for. */
    private int cols;

    public Browser(Model model, PrintStream out) {
        this.model = model;
        this.out = out;
    }

    /**
     * Runs until q or {@code stop} says so: {@code keys} is the terminal's input in character mode,
     * {@code size} its {rows, columns}; the alternate screen is used and left on the way out.
     */
    public void run(InputStream keys, BooleanSupplier stop, java.util.function.Supplier<int[]> size)
            throws IOException, InterruptedException {
        out.print("\033[?1049h\033[?25l");
        try {
            long next = System.nanoTime();
            boolean dirty = true;
            while (!stop.getAsBoolean()) {
                int[] s = size.get();
                if (System.nanoTime() >= next) {
                    cols = s[1];
                    rows = model.rows(cols);
                    long r = model.refreshNs();
                    if (r > 0) {
                        model.refreshed();
                    }
                    next = r > 0 ? System.nanoTime() + r : Long.MAX_VALUE;
                    dirty = true;
                }
                if (dirty) {
                    draw(s[0], s[1]);
                    dirty = false;
                }
                if (keys.available() > 0) {
                    if (!key(keys)) {
                        return;
                    }
                    dirty = true;
                } else {
                    Thread.sleep(20);
                }
            }
        } finally {
            out.print("\033[?25h\033[?1049l");
            out.flush();
        }
    }

    /** One key (an escape sequence whole); false to quit. */
    private boolean key(InputStream keys) throws IOException {
        int c = keys.read();
        if (text != null) {
            textKey(c, keys);
            return true;
        }
        if (typing != null) {
            if (c == '\r' || c == '\n') {
                filter = typing.toString();
                typing = null;
                selected = 0;
                top = 0;
            } else if (c == 127 || c == 8) {
                if (typing.length() > 0) {
                    typing.setLength(typing.length() - 1);
                }
            } else if (c == 27) {
                typing = null;
            } else if (c >= 32) {
                typing.append((char) c);
            }
            return true;
        }
        switch (c) {
            case 'q', 'Q' -> {
                return false;
            }
            case 'j' -> move(1);
            case 'k' -> move(-1);
            case '\r', '\n', '+' -> toggle();
            case '/' -> typing = new StringBuilder();
            case 'a' -> {
                List<List<String>> v = visible();
                if (selected < v.size()) {
                    text = model.annotate(v.get(selected));
                    textTop = 0;
                }
            }
            case 't', 'd' -> {
                List<List<String>> v = visible();
                if (model.zoom((char) c, selected < v.size() ? v.get(selected) : null)) {
                    rows = model.rows(cols);
                    selected = 0;
                    top = 0;
                }
            }
            case 27 -> {
                // ESC [ A/B (arrows), ESC [ 5~/6~ (pages); a lone ESC does nothing
                if (keys.available() > 0 && keys.read() == '[' && keys.available() > 0) {
                    int k = keys.read();
                    if (k == 'A') {
                        move(-1);
                    } else if (k == 'B') {
                        move(1);
                    } else if ((k == '5' || k == '6') && keys.available() > 0 && keys.read() == '~') {
                        move(k == '5' ? -10 : 10);
                    }
                }
            }
            default -> {
                // unbound
            }
        }
        return true;
    }

    /** A key in the annotation view: moving as in the rows; q, ESC or left goes back to the rows. */
    private void textKey(int c, InputStream keys) throws IOException {
        int by = 0;
        if (c == 'q' || c == 'Q') {
            text = null;
        } else if (c == 'j') {
            by = 1;
        } else if (c == 'k') {
            by = -1;
        } else if (c == 27) {
            if (keys.available() > 0 && keys.read() == '[' && keys.available() > 0) {
                int k = keys.read();
                if (k == 'A' || k == 'B') {
                    by = k == 'A' ? -1 : 1;
                } else if (k == 'D') {
                    text = null;
                } else if ((k == '5' || k == '6') && keys.available() > 0 && keys.read() == '~') {
                    by = k == '5' ? -10 : 10;
                }
            } else {
                text = null;
            }
        }
        if (text != null) {
            textTop = Math.max(0, Math.min(text.size() - 1, textTop + by));
        }
    }

    private List<List<String>> visible() {
        if (filter.isEmpty()) {
            return rows;
        }
        List<List<String>> v = new ArrayList<>();
        String f = filter.toLowerCase(Locale.ROOT);
        for (List<String> r : rows) {
            if (r.get(0).toLowerCase(Locale.ROOT).contains(f)) {
                v.add(r);
            }
        }
        return v;
    }

    private void move(int by) {
        int n = visible().size();
        selected = Math.max(0, Math.min(n - 1, selected + by));
    }

    /** Expands or folds the selected row (remembered by its text after the percentages). */
    private void toggle() {
        List<List<String>> v = visible();
        if (selected < v.size()) {
            String k = key(v.get(selected).get(0));
            if (!expanded.remove(k)) {
                expanded.add(k);
            }
        }
    }

    /** A row's identity across refreshes: its text after the percentage columns. */
    private static String key(String row) {
        int pct = row.lastIndexOf('%');
        return pct < 0 ? row : row.substring(pct + 1);
    }

    private void draw(int height, int width) {
        if (text != null) {
            drawText(height, width);
            return;
        }
        List<List<String>> v = visible();
        selected = Math.max(0, Math.min(selected, v.size() - 1));
        int body = Math.max(1, height - 2);
        if (selected < top) {
            top = selected;
        } else if (selected >= top + body) {
            top = selected - body + 1;
        }
        StringBuilder b = new StringBuilder("\033[H\033[2J");
        line(b, model.title(), width, false);
        String header = model.header();
        if (header != null) {
            line(b, header, width, false);
            body = Math.max(1, body - 1);
            if (selected >= top + body) {
                top = selected - body + 1;
            }
        }
        int shown = 0;
        for (int i = top; i < v.size() && shown < body; i++) {
            List<String> block = v.get(i);
            boolean open = expanded.contains(key(block.get(0)));
            String mark = !model.folds() ? "" : block.size() > 1 ? (open ? "-" : "+") : " ";
            line(b, mark + block.get(0), width, i == selected);
            shown++;
            for (int j = 1; open && j < block.size() && shown < body; j++) {
                line(b, " " + block.get(j), width, false);
                shown++;
            }
        }
        for (; shown < body; shown++) {
            b.append('\n');
        }
        String status = typing != null ? "/" + typing : (filter.isEmpty() ? "" : "filter: " + filter + "   ")
                + model.keys();
        b.append(cut(status, width));
        out.print(b);
        out.flush();
    }

    /** The annotation view: its lines from the one scrolled to, and how to go back. */
    private void drawText(int height, int width) {
        StringBuilder b = new StringBuilder("\033[H\033[2J");
        int body = Math.max(1, height - 1);
        for (int i = 0; i < body; i++) {
            int at = textTop + i;
            line(b, at < text.size() ? text.get(at) : "", width, false);
        }
        b.append(cut("keys: up/down j/k, PgUp/PgDn, q/ESC/left back to the rows", width));
        out.print(b);
        out.flush();
    }

    private static void line(StringBuilder b, String text, int width, boolean reverse) {
        String t = cut(text, width);
        if (reverse) {
            b.append("\033[7m").append(t).append(" ".repeat(Math.max(0, width - t.length()))).append("\033[m");
        } else {
            b.append(t);
        }
        b.append('\n');
    }

    private static String cut(String s, int width) {
        return s.length() > width ? s.substring(0, width) : s;
    }
}
