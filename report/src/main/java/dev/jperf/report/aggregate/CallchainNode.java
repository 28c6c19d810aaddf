package dev.jperf.report.aggregate;

import dev.jperf.report.session.Frame;
import dev.jperf.report.symbol.Dso;
import java.util.Arrays;

/**
 * One frame position of a {@link Callchain} tree: perf's callchain_node kept one frame per node
 * (perf folds runs of single-child nodes into one node's list; {@link #run} gives that view). Two
 * frames are the same position when perf's match_chain says so with the function key: same DSO
 * and same symbol start, or same DSO and address when either has no symbol.
 */
public final class CallchainNode {
    private static final CallchainNode[] NONE = new CallchainNode[0];

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
    /** Children in perf's rb_root_in order: descending by (DSO, address), see {@link #childFor}. */
    private CallchainNode[] children = NONE;
    private int nChildren;

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
        return children[i];
    }

    /**
     * The end of the run of positions perf keeps in one callchain_node starting here: it goes on
     * while no chain ends at a position and exactly one chain continues from it.
     */
    public CallchainNode runEnd() {
        CallchainNode n = this;
        while (n.hit == 0 && n.nChildren == 1) {
            n = n.children[0];
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
        int lo = 0;
        int hi = nChildren - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            // children are kept descending: perf links a new node left of every smaller one
            CallchainNode e = children[mid];
            int c;
            if (e.dsoKey != fDso) {
                c = e.dsoKey < fDso ? -1 : 1;
            } else if (e.hasSymbol && fHasSymbol) {
                c = Long.compareUnsigned(e.symbolStart, fStart);
            } else {
                c = Long.compareUnsigned(e.ip, fIp);
            }
            if (c == 0) {
                return e;
            } else if (c > 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        CallchainNode n = new CallchainNode(f);
        if (nChildren == children.length) {
            children = Arrays.copyOf(children, Math.max(2, nChildren * 2));
        }
        System.arraycopy(children, lo, children, lo + 1, nChildren - lo);
        children[lo] = n;
        nChildren++;
        return n;
    }

    private static int dsoKey(Frame f) {
        Dso d = f.dso();
        return d == null ? -1 : d.id();
    }
}
