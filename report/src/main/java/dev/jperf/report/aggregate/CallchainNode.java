package dev.jperf.report.aggregate;

import dev.jperf.report.session.Frame;

/**
 * One frame position of a {@link Callchain} tree, as the printers read it: a view of a node of
 * {@link CallchainNodes} (perf's callchain_node kept one frame per node; perf folds runs of
 * single-child nodes into one node's list, {@link #runEnd} gives that view). Two frames are the
 * same position when perf's match_chain says so with the function key: same DSO and same symbol
 * start, or same DSO and address when either has no symbol.
 */
public final class CallchainNode {
    private final CallchainNodes nodes;
    private final int id;
    /** The children in order (descending, see {@link CallchainNodes#childFor}), made when first asked. */
    private int[] ordered;

    CallchainNode(CallchainNodes nodes, int id) {
        this.nodes = nodes;
        this.id = id;
    }

    /** The frame first seen at this position (what perf prints for it); null for the root. */
    public Frame frame() {
        return nodes.frame(id);
    }

    public long hit() {
        return nodes.hit(id);
    }

    public long childrenHit() {
        return nodes.childrenHit(id);
    }

    /** perf's callchain_cumul_hits: hit + children_hit. */
    public long cumulHit() {
        return nodes.hit(id) + nodes.childrenHit(id);
    }

    public long count() {
        return nodes.count(id);
    }

    /** Chains that go on to a child (perf's children_count). */
    public long childrenCount() {
        return nodes.childrenCount(id);
    }

    public long cumulCount() {
        return nodes.count(id) + nodes.childrenCount(id);
    }

    public int childCount() {
        return nodes.childCount(id);
    }

    /** The i-th child in perf's rb_root_in (in-order) order. */
    public CallchainNode child(int i) {
        if (ordered == null) {
            ordered = nodes.children(id);
        }
        return new CallchainNode(nodes, ordered[i]);
    }

    /**
     * The end of the run of positions perf keeps in one callchain_node starting here: it goes on
     * while no chain ends at a position and exactly one chain continues from it.
     */
    public CallchainNode runEnd() {
        int n = id;
        while (nodes.hit(n) == 0 && nodes.childCount(n) == 1) {
            n = nodes.onlyChild(n);
        }
        return n == id ? this : new CallchainNode(nodes, n);
    }

    /** The child matching {@code f}, created (empty) when there is none. */
    CallchainNode childFor(Frame f) {
        return new CallchainNode(nodes, nodes.childFor(id, f));
    }

    /** The same position of the same call graph (views are made as they are asked for). */
    @Override
    public boolean equals(Object o) {
        return o instanceof CallchainNode n && n.nodes == nodes && n.id == id;
    }

    @Override
    public int hashCode() {
        return id;
    }
}
