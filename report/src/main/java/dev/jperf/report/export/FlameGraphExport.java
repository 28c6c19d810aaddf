package dev.jperf.report.export;

import dev.jperf.format.bpf.BpfSourceLine;
import dev.jperf.format.json.JsonWriter;
import dev.jperf.report.annotate.BpfFunction;
import dev.jperf.report.annotate.BpfLineTable;
import dev.jperf.report.session.Frame;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code jperf report --flamegraph}: one self-contained HTML file (the page, its script and style
 * inline; no network) drawing the stacks as a flame graph per sampled event: root, comms, then
 * frames by name, caller below callee; widths are periods (perf's Overhead), frames narrower than
 * {@link #MIN_WIDTH} of the root merged into one per parent, as flame graph tools drop them, so a
 * million-sample profile stays a few thousand frames. BPF frames carry their program, subprogram
 * and the BTF source lines of their addresses.
 */
final class FlameGraphExport {
    /** Frames under this share of their graph's total are merged (1/5000: under ~0.25 px at 1200 px). */
    static final double MIN_WIDTH = 1.0 / 5000;
    private static final String DATA_MARK = "/*JPERF-DATA*/";

    private final Stacks stacks;
    private final BpfLineTable bpf;
    private final boolean children;
    private final boolean relative;
    private final String title;

    /** A frame of the graph: children by name and kind, periods and samples. */
    private static final class Node {
        final String name;
        final FrameKind kind;
        final Map<String, Node> children = new LinkedHashMap<>(4);
        long total;
        long self;
        long samples;
        long selfSamples;
        /** BPF frames: program, subprogram (long and short), and inclusive samples per source line. */
        String program;
        String subprogram;
        String programName;
        String subprogramName;
        Map<String, long[]> lines;

        Node(String name, FrameKind kind) {
            this.name = name;
            this.kind = kind;
        }

        Node child(String name, FrameKind kind) {
            String k = kind.ordinal() + name;
            Node c = children.get(k);
            if (c == null) {
                c = new Node(name, kind);
                children.put(k, c);
            }
            return c;
        }
    }

    FlameGraphExport(Stacks stacks, BpfLineTable bpf, boolean children, boolean relative, String title) {
        this.stacks = stacks;
        this.bpf = bpf;
        this.children = children;
        this.relative = relative;
        this.title = title;
    }

    void write(OutputStream out) throws IOException {
        String page = template();
        int at = page.indexOf(DATA_MARK);
        Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
        w.write(page, 0, at);
        // JSON inside the page's script element: standard escapes and the script-safe ones
        JsonWriter j = new JsonWriter(new StringBuilder(1 << 16)).standard(true).scriptSafe(true);
        j.startObject();
        j.stringField("title", title);
        j.boolField("children", children);
        j.name("minWidth");
        j.raw(Double.toString(MIN_WIDTH));
        j.name("graphs");
        j.startArray();
        for (int e = 0; e < stacks.tree().events(); e++) {
            if (stacks.totalSamples(e) == 0) {
                continue;
            }
            Node root = graph(e);
            long all = relative ? root.total : stacks.totalPeriod(e);
            j.startObject();
            j.stringField("event", e < stacks.events().size() ? stacks.events().get(e).name() : "event " + e);
            j.intField("total", all);
            j.intField("totalSamples", relative ? root.samples : stacks.totalSamples(e));
            j.name("root");
            node(w, j, root, Math.max(1, (long) Math.ceil(all * MIN_WIDTH)));
            j.endObject();
        }
        j.endArray();
        j.endObject();
        flush(w, j);
        w.write(page, at + DATA_MARK.length(), page.length() - at - DATA_MARK.length());
        w.flush();
    }

    /** Writes what {@code j} holds and empties it (a large graph is not held whole). */
    private static void flush(Writer w, JsonWriter j) throws IOException {
        w.append(j.out());
        j.out().setLength(0);
    }

    private static String template() {
        try (InputStream in = FlameGraphExport.class.getResourceAsStream("flamegraph.html")) {
            if (in == null) {
                throw new IllegalStateException("flamegraph.html is not in the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Event {@code e}'s stacks as a tree of names, totals summed up from the leaves. */
    private Node graph(int e) {
        StackTree t = stacks.tree();
        int n = t.size();
        // the tree's inclusive samples per node (a child's id is above its parent's)
        long[] incl = new long[n];
        for (int i = n - 1; i >= 1; i--) {
            incl[i] += t.selfSamples(i, e);
            incl[t.parent(i)] += incl[i];
        }
        Node root = new Node("all", FrameKind.COMM);
        Node[] of = new Node[n];
        of[StackTree.ROOT] = root;
        for (int i = 1; i < n; i++) {
            if (incl[i] == 0) {
                continue;
            }
            Node parent = of[t.parent(i)];
            Node node;
            if (parent == root) {
                node = root.child(stacks.comm(t.key(i)), FrameKind.COMM);
            } else {
                Frame f = stacks.frame(t.key(i));
                FrameKind kind = FrameKind.of(f);
                node = parent.child(name(f), kind);
                if (kind == FrameKind.JIT && FrameKind.isBpf(f)) {
                    bpfLine(node, f, incl[i]);
                }
            }
            of[i] = node;
            node.self += t.selfPeriod(i, e);
            node.selfSamples += t.selfSamples(i, e);
        }
        sum(root);
        return root;
    }

    private static void sum(Node n) {
        // iterative post-order: stacks can be deeper than the Java stack likes
        List<Node> order = new ArrayList<>();
        List<Node> todo = new ArrayList<>();
        todo.add(n);
        while (!todo.isEmpty()) {
            Node x = todo.remove(todo.size() - 1);
            order.add(x);
            todo.addAll(x.children.values());
        }
        for (int i = order.size() - 1; i >= 0; i--) {
            Node x = order.get(i);
            x.total += x.self;
            x.samples += x.selfSamples;
            for (Node c : x.children.values()) {
                x.total += c.total;
                x.samples += c.samples;
            }
        }
    }

    private static String name(Frame f) {
        if (f.symbol() != null) {
            return f.symbol().name();
        }
        return f.dso() != null ? "[" + f.dso().shortName() + "]" : "[unknown]";
    }

    private void bpfLine(Node node, Frame f, long samples) {
        BpfFunction fn = bpf.find(f.symbol().name(), f.ip());
        if (fn == null) {
            return;
        }
        if (node.program == null) {
            BpfFunction main = bpf.function(fn.prog(), 0);
            node.program = main.funcName() + " (id " + Integer.toUnsignedString(fn.prog().id()) + ", tag "
                    + fn.prog().tagHex() + ")";
            node.subprogram = fn.index() == 0 ? fn.funcName() + " (main function)" : fn.funcName();
            node.programName = main.funcName();
            node.subprogramName = fn.funcName();
            node.lines = new HashMap<>();
        }
        int j = fn.lineAt(f.ip());
        String where;
        if (j < 0) {
            where = "(before the first line record)";
        } else {
            BpfSourceLine l = fn.lines()[j];
            where = l.file() + ":" + l.line();
        }
        node.lines.computeIfAbsent(where, k -> new long[1])[0] += samples;
    }

    /**
     * {@code [name, kind, total, self, samples, selfSamples, bpf-or-0, [children]]}; children under
     * {@code min} merged into one frame per parent.
     */
    private void node(Writer w, JsonWriter j, Node n, long min) throws IOException {
        // explicit stack: [node, next child index]
        List<Object[]> stack = new ArrayList<>();
        open(j, n);
        stack.add(new Object[] {kids(n, min), 0});
        while (!stack.isEmpty()) {
            Object[] top = stack.get(stack.size() - 1);
            Object[] kids = (Object[]) top[0];
            int i = (Integer) top[1];
            if (i == kids.length) {
                j.endArray();
                j.endArray();
                stack.remove(stack.size() - 1);
                continue;
            }
            top[1] = i + 1;
            Object k = kids[i];
            if (k instanceof Node c) {
                open(j, c);
                stack.add(new Object[] {kids(c, min), 0});
            } else {
                long[] merged = (long[]) k;
                j.startArray();
                j.string("[" + merged[4] + " frames under " + trim(100.0 * MIN_WIDTH) + "%]");
                j.string("merged");
                for (int m = 0; m < 4; m++) {
                    j.integer(merged[m]);
                }
                j.integer(0);
                j.startArray();
                j.endArray();
                j.endArray();
            }
            if (j.out().length() >= 1 << 16) {
                flush(w, j);
            }
        }
    }

    private void open(JsonWriter j, Node n) {
        j.startArray();
        j.string(n.name);
        j.string(n.kind.css);
        j.integer(n.total);
        j.integer(n.self);
        j.integer(n.samples);
        j.integer(n.selfSamples);
        if (n.program != null) {
            j.startObject();
            j.stringField("program", n.program);
            j.stringField("subprogram", n.subprogram);
            j.stringField("programName", n.programName);
            j.stringField("subprogramName", n.subprogramName);
            j.name("lines");
            j.startArray();
            List<Map.Entry<String, long[]>> ls = new ArrayList<>(n.lines.entrySet());
            ls.sort((a, b) -> Long.compare(b.getValue()[0], a.getValue()[0]));
            for (Map.Entry<String, long[]> l : ls) {
                j.startArray();
                j.string(l.getKey());
                j.integer(l.getValue()[0]);
                j.endArray();
            }
            j.endArray();
            j.endObject();
        } else {
            j.integer(0);
        }
        j.startArray();
    }

    /** The children to write: wide ones (widest first) as nodes, the narrow ones summed into one. */
    private static Object[] kids(Node n, long min) {
        List<Node> wide = new ArrayList<>();
        long[] merged = new long[5];
        for (Node c : n.children.values()) {
            if (c.total >= min) {
                wide.add(c);
            } else {
                merged[0] += c.total;
                merged[1] += c.total;
                merged[2] += c.samples;
                merged[3] += c.samples;
                merged[4]++;
            }
        }
        wide.sort((a, b) -> a.name.compareTo(b.name));
        Object[] out = Arrays.copyOf(wide.toArray(), wide.size() + (merged[4] > 0 ? 1 : 0));
        if (merged[4] > 0) {
            out[wide.size()] = merged;
        }
        return out;
    }

    private static String trim(double d) {
        String s = String.format(java.util.Locale.ROOT, "%.4f", d);
        return s.replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
