package dev.jperf.report.output;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.jperf.report.aggregate.Callchain;
import dev.jperf.report.aggregate.CallchainNode;
import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.session.Frame;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * perf report --stdio's call graph under an entry (ui/stdio/hist.c): graph and fractal trees with
 * perf's {@code |}, {@code ---} and {@code --xx.xx%--} drawing, flat and folded chains, nodes under
 * the threshold left out as perf's callchain sort leaves them out.
 */
final class CallGraphPrinter {
    private static final String MARGIN = "            ";
    private static final String BAR = "|          ";
    private static final String BLANK = "           ";

    private final StringBuilder out;
    private final CallchainParams params;
    private final boolean skipFirst;
    /** The graph's percentages in perf's colours (a terminal or perf's pager). */
    private boolean color;

    /**
     * @param skipFirst perf leaves out the first frame of a lone root when the sort order starts
     *     with sym (it is the entry's own symbol)
     */
    CallGraphPrinter(StringBuilder out, CallchainParams params, boolean skipFirst) {
        this.out = out;
        this.params = params;
        this.skipFirst = skipFirst;
    }

    /**
     * Prints one entry's graph (perf's hist_entry_callchain__fprintf).
     *
     * @param total the event's total period (percentages of graph mode)
     * @param parent the entry's children period (or self period without --children)
     * @param minHit the graph/flat threshold as a period (perf's min_callchain_hits)
     */
    void print(Callchain cc, long total, long parent, long minHit) {
        if (cc == null || params.mode() == CallchainParams.Mode.NONE) {
            return;
        }
        if (!graphMode()) {
            for (Printed c : chains(cc.root(), total, minHit)) {
                chainText(c);
            }
            return;
        }
        Graph graph = graph(cc.root(), total, parent, minHit);
        if (graph == null) {
            return;
        }
        // the levels under a lone root's "---" start three columns further right
        int leftMargin = graph.lone().isEmpty() ? 0 : 3;
        for (int i = 0; i < graph.lone().size(); i++) {
            if (i == 0) {
                margin(0).append("|\n");
                margin(0).append("---");
            } else {
                margin(leftMargin);
            }
            out.append(graph.lone().get(i)).append('\n');
        }
        levelText(graph.children(), 1, 1, leftMargin);
        out.append('\n');
    }

    /**
     * The same graph as {@link #print} as one JSON object field {@code "callgraph"} (nothing when
     * the text would be empty): in graph and fractal mode {@code "root"} holds the frames of a lone
     * root (printed after {@code ---}) and {@code "children"} the nodes printed with a value, each
     * with the frames of its run ({@code "symbols"}), its period, count and percentage (of the
     * event, or of the parent in fractal mode, as printed) and its own {@code "children"}; in flat
     * and folded mode {@code "chains"} lists each printed chain with its value.
     */
    void json(JsonGenerator g, Callchain cc, long total, long parent, long minHit) throws IOException {
        if (cc == null || params.mode() == CallchainParams.Mode.NONE) {
            return;
        }
        Graph graph = graphMode() ? graph(cc.root(), total, parent, minHit) : null;
        List<Printed> chains = graphMode() ? List.of() : chains(cc.root(), total, minHit);
        if (graph == null && chains.isEmpty()) {
            return;
        }
        g.writeObjectFieldStart("callgraph");
        g.writeStringField("mode", params.mode().name().toLowerCase(java.util.Locale.ROOT));
        if (graph != null) {
            if (!graph.lone().isEmpty()) {
                g.writeArrayFieldStart("root");
                for (String n : graph.lone()) {
                    g.writeString(n);
                }
                g.writeEndArray();
            }
            levelJson(g, "children", graph.children());
        } else {
            levelJson(g, "chains", chains);
        }
        g.writeEndObject();
    }

    /** perf's percent_color_fprintf: the graph's percentages coloured as the rows'. */
    CallGraphPrinter color(boolean color) {
        this.color = color;
        return this;
    }

    private boolean graphMode() {
        return params.mode() == CallchainParams.Mode.GRAPH || params.mode() == CallchainParams.Mode.FRACTAL;
    }

    /** A graph as printed: the frames of a lone root (printed after {@code ---}), then its levels. */
    private record Graph(List<String> lone, List<Printed> children) {
    }

    /**
     * One printed node, or chain in flat and folded mode: its value (a percentage of {@code total}),
     * its frames, and the nodes printed under it.
     *
     * @param closesLevel the node ends its level's pipe (the last child with no {@code [...]} after it)
     * @param remainder fractal mode's {@code [...]}: what no printed child of the parent took
     */
    private record Printed(long period, long count, long total, List<String> symbols, boolean closesLevel,
            boolean remainder, List<Printed> children) {
    }

    /** A perf callchain_node: positions first..last, one run of the tree. */
    private record Run(CallchainNode first, CallchainNode last) {
        long cumul() {
            return first.cumulHit();
        }
    }

    /** perf's sort_chain_graph_abs/rel for one node: children over the threshold, most period first. */
    private List<Run> sortedChildren(CallchainNode last, long minHit) {
        long min = params.mode() == CallchainParams.Mode.FRACTAL
                ? (long) Math.ceil(last.childrenHit() * (params.minPercent() / 100.0)) : minHit;
        List<Run> out = new ArrayList<>(last.childCount());
        for (int i = 0; i < last.childCount(); i++) {
            CallchainNode c = last.child(i);
            if (c.cumulHit() >= min) {
                out.add(new Run(c, c.runEnd()));
            }
        }
        // rb_insert_callchain: equal periods keep rb_root_in order (stable sort)
        out.sort(Comparator.comparingLong(Run::cumul).reversed());
        return out;
    }

    /** What perf's graph printing shows under an entry, or null when it shows nothing. */
    private Graph graph(CallchainNode root, long total, long parent, long minHit) {
        List<Run> kids = sortedChildren(root, minHit);
        long parentCount = root.childrenCount();
        List<String> lone = new ArrayList<>();
        if (kids.size() == 1 && kids.get(0).cumul() == parent) {
            // a lone root with the entry's whole period: no percentage, one column less
            Run r = kids.get(0);
            int i = 0;
            for (CallchainNode n = r.first; ; n = n.child(0)) {
                if (!(i++ == 0 && skipFirst)) {
                    lone.add(name(n.frame()));
                    if (lone.size() == params.printLimit()) {
                        break;
                    }
                }
                if (n.equals(r.last)) {
                    break;
                }
            }
            kids = sortedChildren(r.last, minHit);
            parentCount = r.last.childrenCount();
        }
        if (lone.isEmpty() && kids.isEmpty()) {
            return null;
        }
        return new Graph(lone, level(kids, parentCount,
                params.mode() == CallchainParams.Mode.FRACTAL ? parent : total, minHit));
    }

    /** perf's __callchain__fprintf_graph: the nodes of one level and, under each, its own. */
    private List<Printed> level(List<Run> kids, long parentCount, long total, long minHit) {
        boolean fractal = params.mode() == CallchainParams.Mode.FRACTAL;
        List<Printed> level = new ArrayList<>();
        long remaining = total;
        long cumulCount = 0;
        for (int k = 0; k < kids.size(); k++) {
            Run child = kids.get(k);
            remaining -= child.cumul();
            cumulCount += child.first.cumulCount();
            List<String> symbols = new ArrayList<>();
            for (CallchainNode n = child.first; ; n = n.child(0)) {
                symbols.add(name(n.frame()));
                if (n.equals(child.last)) {
                    break;
                }
            }
            // the last child ends its level's pipe, unless filtered hits follow it ([...])
            boolean closes = k == kids.size() - 1 && (!fractal || remaining == 0);
            level.add(new Printed(child.cumul(), child.first.cumulCount(), total, symbols, closes, false,
                    level(sortedChildren(child.last, minHit), child.last.childrenCount(),
                            fractal ? child.last.childrenHit() : total, minHit)));
            if (level.size() == params.printLimit()) {
                break;
            }
        }
        if (fractal && remaining != 0 && remaining != total) {
            boolean byCount = params.value() == CallchainParams.Value.COUNT && !kids.isEmpty();
            long remCount = byCount ? parentCount - cumulCount : 0;
            if (!byCount || remCount > 0) {
                level.add(new Printed(remaining, remCount, total, List.of("[...]"), true, true, List.of()));
            }
        }
        return level;
    }

    private void levelText(List<Printed> level, int depth, int depthMask, int leftMargin) {
        for (Printed p : level) {
            int mask = p.closesLevel() ? depthMask & ~(1 << (depth - 1)) : depthMask;
            if (!p.remainder()) {
                graphLine(depth, depthMask, leftMargin);
            }
            for (int i = 0; i < p.symbols().size(); i++) {
                ipchain(p.period(), p.count(), p.symbols().get(i), depth, mask, i, p.total(), leftMargin);
            }
            levelText(p.children(), depth + 1, mask | (1 << depth), leftMargin);
        }
    }

    private void graphLine(int depth, int depthMask, int leftMargin) {
        margin(leftMargin);
        for (int i = 0; i < depth; i++) {
            out.append((depthMask & (1 << i)) != 0 ? BAR : BLANK);
        }
        out.append('\n');
    }

    /** perf's ipchain__fprintf_graph: the value only on a node's first line. */
    private void ipchain(long period, long count, String name, int depth, int depthMask, int index, long total,
            int leftMargin) {
        margin(leftMargin);
        for (int i = 0; i < depth; i++) {
            out.append((depthMask & (1 << i)) != 0 ? '|' : ' ');
            if (index == 0 && i == depth - 1) {
                out.append("--");
                String c = color && params.value() == CallchainParams.Value.PERCENT
                        ? StdioReport.percentColor(total == 0 ? 0.0 : period * 100.0 / total) : null;
                if (c != null) {
                    out.append(c);
                }
                value(period, count, total);
                if (c != null) {
                    out.append(StdioReport.COLOR_RESET);
                }
                out.append("--");
            } else {
                out.append("          ");
            }
        }
        out.append(name).append('\n');
    }

    /** Each node as an object with its value, {@code "symbols"} and its own {@code "children"}. */
    private static void levelJson(JsonGenerator g, String field, List<Printed> level) throws IOException {
        g.writeArrayFieldStart(field);
        for (Printed p : level) {
            g.writeStartObject();
            g.writeFieldName("percent");
            g.writeNumber(new BigDecimal(Percent.f2(p.total() == 0 ? 0.0 : p.period() * 100.0 / p.total())));
            g.writeNumberField("period", p.period());
            g.writeNumberField("count", p.count());
            g.writeArrayFieldStart("symbols");
            for (String n : p.symbols()) {
                g.writeString(n);
            }
            g.writeEndArray();
            if (!p.children().isEmpty()) {
                levelJson(g, "children", p.children());
            }
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** A chain flat and folded mode print: the node it ends at and its frames from the root. */
    private record Chain(CallchainNode end, List<String> symbols) {
    }

    /** perf's __sort_chain_flat: nodes where chains end, children before their parent, most hits first. */
    private static List<Chain> flatChains(CallchainNode root, long minHit) {
        List<Chain> out = new ArrayList<>();
        // iterative post-order: deep chains must not overflow the stack; the stack is the chain
        List<CallchainNode> stack = new ArrayList<>();
        List<Integer> next = new ArrayList<>();
        stack.add(root);
        next.add(0);
        while (!stack.isEmpty()) {
            int top = stack.size() - 1;
            CallchainNode n = stack.get(top);
            int i = next.get(top);
            if (i < n.childCount()) {
                next.set(top, i + 1);
                stack.add(n.child(i));
                next.add(0);
            } else {
                if (n.hit() != 0 && n.hit() >= minHit) {
                    List<String> symbols = new ArrayList<>(top);
                    for (int k = 1; k <= top; k++) {
                        symbols.add(name(stack.get(k).frame()));
                    }
                    out.add(new Chain(n, symbols));
                }
                stack.remove(top);
                next.remove(top);
            }
        }
        out.sort(Comparator.comparingLong((Chain c) -> c.end().hit()).reversed());
        return out;
    }

    /** perf's flat and folded chains: each over the threshold, its value, its frames from the root. */
    private List<Printed> chains(CallchainNode root, long total, long minHit) {
        boolean flat = params.mode() == CallchainParams.Mode.FLAT;
        List<Printed> chains = new ArrayList<>();
        for (Chain c : flatChains(root, minHit)) {
            CallchainNode n = c.end();
            chains.add(new Printed(flat ? n.cumulHit() : n.hit(), flat ? n.cumulCount() : n.count(), total,
                    c.symbols(), false, false, List.of()));
            if (chains.size() == params.printLimit()) {
                break;
            }
        }
        return chains;
    }

    private void chainText(Printed c) {
        if (params.mode() == CallchainParams.Mode.FLAT) {
            out.append("           ");
            value(c.period(), c.count(), c.total());
            out.append('\n');
            for (String n : c.symbols()) {
                out.append("                ").append(n).append('\n');
            }
            out.append('\n');
        } else {
            value(c.period(), c.count(), c.total());
            out.append(' ').append(String.join(";", c.symbols())).append('\n');
        }
    }

    private void value(long period, long count, long total) {
        switch (params.value()) {
            case PERIOD -> out.append(Long.toUnsignedString(period));
            case COUNT -> out.append(count);
            case PERCENT -> out.append(Percent.f2(total == 0 ? 0.0 : period * 100.0 / total)).append('%');
        }
    }

    /** perf's callchain_list__sym_name: the symbol, or the address as %#llx. */
    static String name(Frame f) {
        if (f.symbol() != null) {
            return f.symbol().inlined() ? f.symbol().name() + " (inlined)" : f.symbol().name();
        }
        return f.ip() == 0 ? "0" : "0x" + Long.toHexString(f.ip());
    }

    private StringBuilder margin(int leftMargin) {
        out.append(MARGIN);
        for (int i = 0; i < leftMargin; i++) {
            out.append(' ');
        }
        return out;
    }
}
