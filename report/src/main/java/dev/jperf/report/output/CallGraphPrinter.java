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
        if (cc == null) {
            return;
        }
        switch (params.mode()) {
            case GRAPH, FRACTAL -> graph(cc.root(), total, parent, minHit);
            case FLAT -> flat(cc.root(), total, minHit);
            case FOLDED -> folded(cc.root(), total, minHit);
            case NONE -> {
            }
        }
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
        if (cc == null) {
            return;
        }
        switch (params.mode()) {
            case GRAPH, FRACTAL -> graphJson(g, cc.root(), total, parent, minHit);
            case FLAT, FOLDED -> chainsJson(g, cc.root(), total, minHit, params.mode() == CallchainParams.Mode.FLAT);
            case NONE -> {
            }
        }
    }

    private void graphJson(JsonGenerator g, CallchainNode root, long total, long parent, long minHit)
            throws IOException {
        List<Run> kids = sortedChildren(root, minHit);
        long parentCount = root.childrenCount();
        List<String> lone = new ArrayList<>();
        if (kids.size() == 1 && kids.get(0).cumul() == parent) {
            Run r = kids.get(0);
            int i = 0;
            for (CallchainNode n = r.first; ; n = n.child(0)) {
                if (!(i++ == 0 && skipFirst)) {
                    lone.add(name(n.frame()));
                    if (lone.size() == params.printLimit()) {
                        break;
                    }
                }
                if (n == r.last) {
                    break;
                }
            }
            kids = sortedChildren(r.last, minHit);
            parentCount = r.last.childrenCount();
        }
        if (lone.isEmpty() && kids.isEmpty()) {
            return;
        }
        if (params.mode() == CallchainParams.Mode.FRACTAL) {
            total = parent;
        }
        g.writeObjectFieldStart("callgraph");
        g.writeStringField("mode", params.mode().name().toLowerCase(java.util.Locale.ROOT));
        if (!lone.isEmpty()) {
            g.writeArrayFieldStart("root");
            for (String n : lone) {
                g.writeString(n);
            }
            g.writeEndArray();
        }
        levelJson(g, kids, parentCount, total, minHit);
        g.writeEndObject();
    }

    /** {@link #graphLevel} as a "children" array. */
    private void levelJson(JsonGenerator g, List<Run> kids, long parentCount, long total, long minHit)
            throws IOException {
        boolean fractal = params.mode() == CallchainParams.Mode.FRACTAL;
        g.writeArrayFieldStart("children");
        long remaining = total;
        long cumulCount = 0;
        long printedEntries = 0;
        for (Run child : kids) {
            remaining -= child.cumul();
            cumulCount += child.first.cumulCount();
            g.writeStartObject();
            valueJson(g, child.cumul(), child.first.cumulCount(), total);
            g.writeArrayFieldStart("symbols");
            for (CallchainNode n = child.first; ; n = n.child(0)) {
                g.writeString(name(n.frame()));
                if (n == child.last) {
                    break;
                }
            }
            g.writeEndArray();
            List<Run> next = sortedChildren(child.last, minHit);
            if (!next.isEmpty()) {
                levelJson(g, next, child.last.childrenCount(), fractal ? child.last.childrenHit() : total, minHit);
            }
            g.writeEndObject();
            if (++printedEntries == params.printLimit()) {
                break;
            }
        }
        if (fractal && remaining != 0 && remaining != total) {
            long remCount = 0;
            boolean print = true;
            if (params.value() == CallchainParams.Value.COUNT && !kids.isEmpty()) {
                remCount = parentCount - cumulCount;
                print = remCount > 0;
            }
            if (print) {
                g.writeStartObject();
                valueJson(g, remaining, remCount, total);
                g.writeArrayFieldStart("symbols");
                g.writeString("[...]");
                g.writeEndArray();
                g.writeEndObject();
            }
        }
        g.writeEndArray();
    }

    private void chainsJson(JsonGenerator g, CallchainNode root, long total, long minHit, boolean flat)
            throws IOException {
        List<CallchainNode> chains = flatChains(root, minHit);
        if (chains.isEmpty()) {
            return;
        }
        g.writeObjectFieldStart("callgraph");
        g.writeStringField("mode", params.mode().name().toLowerCase(java.util.Locale.ROOT));
        g.writeArrayFieldStart("chains");
        long printed = 0;
        for (CallchainNode n : chains) {
            g.writeStartObject();
            valueJson(g, flat ? n.cumulHit() : n.hit(), flat ? n.cumulCount() : n.count(), total);
            g.writeArrayFieldStart("symbols");
            for (Frame f : path(root, n)) {
                g.writeString(name(f));
            }
            g.writeEndArray();
            g.writeEndObject();
            if (++printed == params.printLimit()) {
                break;
            }
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /** The value perf prints (percent as "%.2f" of {@code total}) with the period and count beside it. */
    private static void valueJson(JsonGenerator g, long period, long count, long total) throws IOException {
        g.writeFieldName("percent");
        g.writeNumber(new BigDecimal(Percent.f2(total == 0 ? 0.0 : period * 100.0 / total)));
        g.writeNumberField("period", period);
        g.writeNumberField("count", count);
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

    private void graph(CallchainNode root, long total, long parent, long minHit) {
        int start = out.length();
        int leftMargin = 0;
        List<Run> kids = sortedChildren(root, minHit);
        long parentCount = root.childrenCount();
        if (!kids.isEmpty() && kids.size() == 1 && kids.get(0).cumul() == parent) {
            // a lone root with the entry's whole period: no percentage, one column less
            Run r = kids.get(0);
            boolean printed = false;
            long printedEntries = 0;
            int i = 0;
            for (CallchainNode n = r.first; ; n = n.child(0)) {
                if (!(i++ == 0 && skipFirst)) {
                    if (!printed) {
                        margin(leftMargin).append("|\n");
                        margin(leftMargin).append("---");
                        leftMargin += 3;
                        printed = true;
                    } else {
                        margin(leftMargin);
                    }
                    out.append(name(n.frame())).append('\n');
                    if (++printedEntries == params.printLimit()) {
                        break;
                    }
                }
                if (n == r.last) {
                    break;
                }
            }
            kids = sortedChildren(r.last, minHit);
            parentCount = r.last.childrenCount();
        }
        if (params.mode() == CallchainParams.Mode.FRACTAL) {
            total = parent;
        }
        graphLevel(kids, parentCount, total, 1, 1, leftMargin, minHit);
        if (out.length() != start) {
            out.append('\n');
        }
    }

    /** perf's __callchain__fprintf_graph. */
    private void graphLevel(List<Run> kids, long parentCount, long total, int depth, int depthMask, int leftMargin,
            long minHit) {
        boolean fractal = params.mode() == CallchainParams.Mode.FRACTAL;
        int newDepthMask = depthMask;
        long remaining = total;
        long cumulCount = 0;
        long printedEntries = 0;
        for (int k = 0; k < kids.size(); k++) {
            Run child = kids.get(k);
            remaining -= child.cumul();
            cumulCount += child.first.cumulCount();
            // the last child ends its level's pipe, unless filtered hits follow it ([...])
            if (k == kids.size() - 1 && (!fractal || remaining == 0)) {
                newDepthMask &= ~(1 << (depth - 1));
            }
            graphLine(depth, depthMask, leftMargin);
            int i = 0;
            for (CallchainNode n = child.first; ; n = n.child(0)) {
                ipchain(child.cumul(), child.first.cumulCount(), name(n.frame()), depth, newDepthMask, i++, total,
                        leftMargin);
                if (n == child.last) {
                    break;
                }
            }
            long newTotal = fractal ? child.last.childrenHit() : total;
            graphLevel(sortedChildren(child.last, minHit), child.last.childrenCount(), newTotal, depth + 1,
                    newDepthMask | (1 << depth), leftMargin, minHit);
            if (++printedEntries == params.printLimit()) {
                break;
            }
        }
        if (fractal && remaining != 0 && remaining != total) {
            long remCount = 0;
            if (params.value() == CallchainParams.Value.COUNT && !kids.isEmpty()) {
                remCount = parentCount - cumulCount;
                if (remCount <= 0) {
                    return;
                }
            }
            newDepthMask &= ~(1 << (depth - 1));
            ipchain(remaining, remCount, "[...]", depth, newDepthMask, 0, total, leftMargin);
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
                value(period, count, total);
                out.append("--");
            } else {
                out.append("          ");
            }
        }
        out.append(name).append('\n');
    }

    /** perf's __sort_chain_flat: nodes where chains end, children before their parent, most hits first. */
    private List<CallchainNode> flatChains(CallchainNode root, long minHit) {
        List<CallchainNode> out = new ArrayList<>();
        flatCollect(root, minHit, out);
        out.sort(Comparator.comparingLong(CallchainNode::hit).reversed());
        return out;
    }

    private static void flatCollect(CallchainNode node, long minHit, List<CallchainNode> out) {
        // iterative post-order: deep chains must not overflow the stack
        List<CallchainNode> stack = new ArrayList<>();
        List<Integer> next = new ArrayList<>();
        stack.add(node);
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
                stack.remove(top);
                next.remove(top);
                if (n.hit() != 0 && n.hit() >= minHit) {
                    out.add(n);
                }
            }
        }
    }

    private void flat(CallchainNode root, long total, long minHit) {
        long printed = 0;
        for (CallchainNode n : flatChains(root, minHit)) {
            out.append("           ");
            value(n.cumulHit(), n.cumulCount(), total);
            out.append('\n');
            for (Frame f : path(root, n)) {
                out.append("                ").append(name(f)).append('\n');
            }
            out.append('\n');
            if (++printed == params.printLimit()) {
                break;
            }
        }
    }

    private void folded(CallchainNode root, long total, long minHit) {
        long printed = 0;
        for (CallchainNode n : flatChains(root, minHit)) {
            value(n.hit(), n.count(), total);
            out.append(' ');
            boolean first = true;
            for (Frame f : path(root, n)) {
                if (!first) {
                    out.append(';');
                }
                first = false;
                out.append(name(f));
            }
            out.append('\n');
            if (++printed == params.printLimit()) {
                break;
            }
        }
    }

    /** The frames from the root to {@code target} (nodes keep no parent link: searched). */
    private static List<Frame> path(CallchainNode root, CallchainNode target) {
        List<CallchainNode> stack = new ArrayList<>();
        List<Integer> next = new ArrayList<>();
        stack.add(root);
        next.add(0);
        while (!stack.isEmpty()) {
            int top = stack.size() - 1;
            CallchainNode n = stack.get(top);
            if (n == target) {
                List<Frame> frames = new ArrayList<>(top);
                for (int i = 1; i <= top; i++) {
                    frames.add(stack.get(i).frame());
                }
                return frames;
            }
            int i = next.get(top);
            if (i < n.childCount()) {
                next.set(top, i + 1);
                stack.add(n.child(i));
                next.add(0);
            } else {
                stack.remove(top);
                next.remove(top);
            }
        }
        return List.of();
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
            return f.symbol().name();
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
