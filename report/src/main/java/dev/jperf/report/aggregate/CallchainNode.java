package dev.jperf.report.aggregate;

import dev.jperf.report.session.Frame;
import dev.jperf.report.symbol.Dso;

/**
 * One frame position of a {@link Callchain} tree: perf's callchain_node kept one frame per node
 * (perf folds runs of single-child nodes into one node's list; {@link #run} gives that view). Two
 * frames are the same position when perf's match_chain says so with the function key: same DSO
 * and same symbol start, or same DSO and address when either has no symbol.
 */
public final class CallchainNode {
    private final Frame frame;
    /*
     * What positions are compared by, copied from the frame: the search over children reads these
     * without following frame -> dso / symbol (those cache misses were ~30 % of a call-graph
     * report's CPU).
     */
    private final int dsoKey;
    private final boolean hasSymbol;
    private final long symbolStart;
    private final long ip;
    /** Period of the chains that end here (perf's hit). */
    long hit;
    /** Period of the chains that go on to a child (perf's children_hit). */
    long childrenHit;
    /** Chains that end here (perf's count). */
    long count;
    long childrenCount;
    /*
     * Children in perf's rb_root_in: a red-black tree searched with match_chain's order, which is
     * not total (a frame without symbol compares by address with a symbol's start), so a search
     * can miss an equal child and the tree's shape decides which: the shape must be perf's.
     * Each node's links are for its parent's tree (java.util.TreeMap's balancing, as EntryTree).
     */
    private CallchainNode childRoot;
    private CallchainNode left;
    private CallchainNode right;
    private CallchainNode up;
    private boolean red;
    private int nChildren;
    /** The children in order (descending, see {@link #childFor}), made when first asked. */
    private CallchainNode[] ordered;

    CallchainNode(Frame frame) {
        this.frame = frame;
        this.dsoKey = frame == null ? -1 : dsoKey(frame);
        this.hasSymbol = frame != null && frame.symbol() != null;
        this.symbolStart = hasSymbol ? frame.symbol().start() : 0;
        this.ip = frame == null ? 0 : frame.ip();
    }

    /** The frame first seen at this position (what perf prints for it); null for the root. */
    public Frame frame() {
        return frame;
    }

    public long hit() {
        return hit;
    }

    public long childrenHit() {
        return childrenHit;
    }

    /** perf's callchain_cumul_hits: hit + children_hit. */
    public long cumulHit() {
        return hit + childrenHit;
    }

    public long count() {
        return count;
    }

    /** Chains that go on to a child (perf's children_count). */
    public long childrenCount() {
        return childrenCount;
    }

    public long cumulCount() {
        return count + childrenCount;
    }

    public int childCount() {
        return nChildren;
    }

    /** The i-th child in perf's rb_root_in (in-order) order. */
    public CallchainNode child(int i) {
        if (ordered == null) {
            ordered = new CallchainNode[nChildren];
            int k = 0;
            CallchainNode n = childRoot;
            while (n != null && n.left != null) {
                n = n.left;
            }
            for (; n != null; n = successor(n)) {
                ordered[k++] = n;
            }
        }
        return ordered[i];
    }

    private static CallchainNode successor(CallchainNode n) {
        if (n.right != null) {
            CallchainNode p = n.right;
            while (p.left != null) {
                p = p.left;
            }
            return p;
        }
        CallchainNode p = n.up;
        while (p != null && n == p.right) {
            n = p;
            p = p.up;
        }
        return p;
    }

    /**
     * The end of the run of positions perf keeps in one callchain_node starting here: it goes on
     * while no chain ends at a position and exactly one chain continues from it.
     */
    public CallchainNode runEnd() {
        CallchainNode n = this;
        while (n.hit == 0 && n.nChildren == 1) {
            n = n.childRoot;
        }
        return n;
    }

    /**
     * The child matching {@code f}, created (empty) when there is none. perf's match_chain for
     * CCKEY_FUNCTION: DSOs first (perf compares the struct dso pointers, i.e. allocation order;
     * jperf uses creation order, the DSO's id), then symbol starts, or addresses when either frame
     * has no symbol.
     */
    CallchainNode childFor(Frame f) {
        int fDso = dsoKey(f);
        boolean fHasSymbol = f.symbol() != null;
        long fStart = fHasSymbol ? f.symbol().start() : 0;
        long fIp = f.ip();
        CallchainNode parent = null;
        int c = 0;
        for (CallchainNode e = childRoot; e != null; e = c < 0 ? e.left : e.right) {
            parent = e;
            if (e.dsoKey != fDso) {
                c = e.dsoKey < fDso ? -1 : 1;
            } else if (e.hasSymbol && fHasSymbol) {
                c = Long.compareUnsigned(e.symbolStart, fStart);
            } else {
                c = Long.compareUnsigned(e.ip, fIp);
            }
            if (c == 0) {
                return e;
            }
            // MATCH_LT (the node's key below the frame's): perf goes left, so the order is descending
        }
        CallchainNode n = new CallchainNode(f);
        n.up = parent;
        if (parent == null) {
            childRoot = n;
        } else if (c < 0) {
            parent.left = n;
        } else {
            parent.right = n;
        }
        insertColor(n);
        nChildren++;
        ordered = null;
        return n;
    }

    // java.util.TreeMap's fixAfterInsertion (CLR), which makes lib/rbtree.c's shapes

    private void insertColor(CallchainNode x) {
        x.red = true;
        while (x != null && x != childRoot && x.up.red) {
            CallchainNode p = x.up;
            CallchainNode g = p.up;
            if (p == g.left) {
                CallchainNode y = g.right;
                if (y != null && y.red) {
                    p.red = false;
                    y.red = false;
                    g.red = true;
                    x = g;
                } else {
                    if (x == p.right) {
                        x = p;
                        rotateLeft(x);
                    }
                    x.up.red = false;
                    x.up.up.red = true;
                    rotateRight(x.up.up);
                }
            } else {
                CallchainNode y = g.left;
                if (y != null && y.red) {
                    p.red = false;
                    y.red = false;
                    g.red = true;
                    x = g;
                } else {
                    if (x == p.left) {
                        x = p;
                        rotateRight(x);
                    }
                    x.up.red = false;
                    x.up.up.red = true;
                    rotateLeft(x.up.up);
                }
            }
        }
        childRoot.red = false;
    }

    private void rotateLeft(CallchainNode p) {
        CallchainNode r = p.right;
        p.right = r.left;
        if (r.left != null) {
            r.left.up = p;
        }
        r.up = p.up;
        if (p.up == null) {
            childRoot = r;
        } else if (p.up.left == p) {
            p.up.left = r;
        } else {
            p.up.right = r;
        }
        r.left = p;
        p.up = r;
    }

    private void rotateRight(CallchainNode p) {
        CallchainNode l = p.left;
        p.left = l.right;
        if (l.right != null) {
            l.right.up = p;
        }
        l.up = p.up;
        if (p.up == null) {
            childRoot = l;
        } else if (p.up.right == p) {
            p.up.right = l;
        } else {
            p.up.left = l;
        }
        l.right = p;
        p.up = l;
    }

    private static int dsoKey(Frame f) {
        Dso d = f.dso();
        return d == null ? -1 : d.id();
    }
}
