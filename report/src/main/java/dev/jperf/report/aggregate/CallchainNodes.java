package dev.jperf.report.aggregate;

import dev.jperf.report.session.Frame;
import dev.jperf.report.symbol.Dso;
import dev.jperf.report.symbol.Symbol;
import java.util.Arrays;

/**
 * The nodes of a report's call graphs (perf's callchain_node, one frame per node), as rows of
 * primitive arrays addressed by node number: a busy machine's file makes tens of millions of
 * them, and as objects linked by references they would be an old generation that every young
 * collection scans where new children dirty its cards, and every full one traces (bench/README.md
 * measured it). Ints and longs hold no references: nothing to scan or trace; the
 * frames sit in their own arrays, written once per node in allocation order. The rows grow by
 * chunks (no copy of what is there). Node 0 is none.
 *
 * <p>A node's children are perf's rb_root_in: a red-black tree searched with match_chain's order,
 * which is not total (a frame without symbol compares by address with a symbol's start), so a
 * search can miss an equal child and the tree's shape decides which: the shape must be perf's
 * (java.util.TreeMap's balancing, as {@link EntryTree}). Each node's links are for its parent's
 * tree.
 */
final class CallchainNodes {
    /*
     * 64k nodes a chunk: the ints' and longs' chunks (1.8 and 3 MB) are above the launcher's
     * PretenureSizeThreshold, allocated in the old generation instead of copied out of the young one.
     */
    private static final int SHIFT = 16;
    private static final int CHUNK = 1 << SHIFT;
    private static final int MASK = CHUNK - 1;

    // a node's ints: what positions are compared by (the DSO's id), its children's tree, its links
    private static final int DSO = 0;
    private static final int CHILD_ROOT = 1;
    private static final int LEFT = 2;
    private static final int RIGHT = 3;
    private static final int UP = 4;
    private static final int CHILDREN = 5;
    private static final int FLAGS = 6;
    private static final int INTS = 7;
    private static final int RED = 1;
    private static final int HAS_SYMBOL = 2;
    /** The node's symbol is an inlined function's: compared by name, through the node's frame. */
    private static final int INLINED = 4;

    // a node's longs: the rest of its comparison key (copied from the frame: following frame ->
    // dso / symbol in the search was ~30 % of a call-graph report's CPU), then perf's counters
    private static final int SYMBOL_START = 0;
    private static final int IP = 1;
    /** Period of the chains that end here (perf's hit). */
    private static final int HIT = 2;
    /** Period of the chains that go on to a child (perf's children_hit). */
    private static final int CHILDREN_HIT = 3;
    /** Chains that end here (perf's count). */
    private static final int COUNT = 4;
    private static final int CHILDREN_COUNT = 5;
    private static final int LONGS = 6;

    private int[][] ints = new int[16][];
    private long[][] longs = new long[16][];
    private Frame[][] frames = new Frame[16][];
    private int size = 1;

    /** A new node of frame {@code f} (null for a root), no children, zero counters. */
    int add(Frame f) {
        int n = size;
        int c = n >>> SHIFT;
        if (c == ints.length) {
            ints = Arrays.copyOf(ints, 2 * c);
            longs = Arrays.copyOf(longs, 2 * c);
            frames = Arrays.copyOf(frames, 2 * c);
        }
        if (ints[c] == null) {
            ints[c] = new int[CHUNK * INTS];
            longs[c] = new long[CHUNK * LONGS];
            frames[c] = new Frame[CHUNK];
        }
        size++;
        int o = n & MASK;
        frames[c][o] = f;
        int[] iv = ints[c];
        long[] lv = longs[c];
        int ib = o * INTS;
        int lb = o * LONGS;
        iv[ib + DSO] = f == null ? -1 : dsoKey(f);
        if (f != null) {
            Symbol s = f.symbol();
            if (s != null) {
                iv[ib + FLAGS] = s.inlined() ? HAS_SYMBOL | INLINED : HAS_SYMBOL;
                lv[lb + SYMBOL_START] = s.start();
            }
            lv[lb + IP] = f.ip();
        }
        return n;
    }

    /** The frame first seen at node n (what perf prints for it); null for a root. */
    Frame frame(int n) {
        return frames[n >>> SHIFT][n & MASK];
    }

    long hit(int n) {
        return longAt(n, HIT);
    }

    long childrenHit(int n) {
        return longAt(n, CHILDREN_HIT);
    }

    long count(int n) {
        return longAt(n, COUNT);
    }

    long childrenCount(int n) {
        return longAt(n, CHILDREN_COUNT);
    }

    int childCount(int n) {
        return intAt(n, CHILDREN);
    }

    /** Adds a chain of {@code period} and {@code count} samples that ends at n. */
    void end(int n, long period, long count) {
        long[] lv = longs[n >>> SHIFT];
        int lb = (n & MASK) * LONGS;
        lv[lb + HIT] += period;
        lv[lb + COUNT] += count;
    }

    /** Adds a chain of {@code period} and {@code count} samples that goes on from n to a child. */
    void pass(int n, long period, long count) {
        long[] lv = longs[n >>> SHIFT];
        int lb = (n & MASK) * LONGS;
        lv[lb + CHILDREN_HIT] += period;
        lv[lb + CHILDREN_COUNT] += count;
    }

    /** perf top's decay_callchain: every node's hit and children_hit scaled by 7/8. */
    void decay() {
        for (int n = 1; n < size; n++) {
            long[] lv = longs[n >>> SHIFT];
            int lb = (n & MASK) * LONGS;
            lv[lb + HIT] = lv[lb + HIT] * 7 / 8;
            lv[lb + CHILDREN_HIT] = lv[lb + CHILDREN_HIT] * 7 / 8;
        }
    }

    /** n's children in perf's rb_root_in (in-order) order. */
    int[] children(int n) {
        int[] out = new int[intAt(n, CHILDREN)];
        int k = 0;
        int c = intAt(n, CHILD_ROOT);
        while (c != 0 && intAt(c, LEFT) != 0) {
            c = intAt(c, LEFT);
        }
        for (; c != 0; c = successor(c)) {
            out[k++] = c;
        }
        return out;
    }

    /** n's only child (n has exactly one). */
    int onlyChild(int n) {
        return intAt(n, CHILD_ROOT);
    }

    private int successor(int n) {
        int r = intAt(n, RIGHT);
        if (r != 0) {
            while (intAt(r, LEFT) != 0) {
                r = intAt(r, LEFT);
            }
            return r;
        }
        int p = intAt(n, UP);
        while (p != 0 && n == intAt(p, RIGHT)) {
            n = p;
            p = intAt(p, UP);
        }
        return p;
    }

    /**
     * The child of {@code parent} matching {@code f}, created (empty) when there is none. perf's
     * match_chain for CCKEY_FUNCTION: DSOs first (perf compares the struct dso pointers, i.e.
     * allocation order; jperf uses creation order, the DSO's id), then symbol starts, or addresses
     * when either frame has no symbol; inlined functions by name.
     */
    int childFor(int parent, Frame f) {
        int fDso = dsoKey(f);
        Symbol fs = f.symbol();
        boolean fHasSymbol = fs != null;
        boolean fInlined = fHasSymbol && fs.inlined();
        long fStart = fHasSymbol ? fs.start() : 0;
        long fIp = f.ip();
        int at = 0;
        int c = 0;
        for (int e = intAt(parent, CHILD_ROOT); e != 0; e = c < 0 ? intAt(e, LEFT) : intAt(e, RIGHT)) {
            at = e;
            int[] iv = ints[e >>> SHIFT];
            int ib = (e & MASK) * INTS;
            int eDso = iv[ib + DSO];
            int flags = iv[ib + FLAGS];
            if (fHasSymbol && (flags & HAS_SYMBOL) != 0 && (fInlined || (flags & INLINED) != 0)) {
                // perf compares inlined frames by name alone: their symbols share the caller's start
                c = frames[e >>> SHIFT][e & MASK].symbol().name().compareTo(fs.name());
            } else if (eDso != fDso) {
                c = eDso < fDso ? -1 : 1;
            } else if ((iv[ib + FLAGS] & HAS_SYMBOL) != 0 && fHasSymbol) {
                c = Long.compareUnsigned(longAt(e, SYMBOL_START), fStart);
            } else {
                c = Long.compareUnsigned(longAt(e, IP), fIp);
            }
            if (c == 0) {
                return e;
            }
            // MATCH_LT (the node's key below the frame's): perf goes left, so the order is descending
        }
        int n = add(f);
        setIntAt(n, UP, at);
        if (at == 0) {
            setIntAt(parent, CHILD_ROOT, n);
        } else if (c < 0) {
            setIntAt(at, LEFT, n);
        } else {
            setIntAt(at, RIGHT, n);
        }
        insertColor(parent, n);
        setIntAt(parent, CHILDREN, intAt(parent, CHILDREN) + 1);
        return n;
    }

    // java.util.TreeMap's fixAfterInsertion (CLR), which makes lib/rbtree.c's shapes

    private void insertColor(int parent, int x) {
        setRed(x, true);
        while (x != 0 && x != intAt(parent, CHILD_ROOT) && red(intAt(x, UP))) {
            int p = intAt(x, UP);
            int g = intAt(p, UP);
            if (p == intAt(g, LEFT)) {
                int y = intAt(g, RIGHT);
                if (y != 0 && red(y)) {
                    setRed(p, false);
                    setRed(y, false);
                    setRed(g, true);
                    x = g;
                } else {
                    if (x == intAt(p, RIGHT)) {
                        x = p;
                        rotateLeft(parent, x);
                    }
                    setRed(intAt(x, UP), false);
                    setRed(intAt(intAt(x, UP), UP), true);
                    rotateRight(parent, intAt(intAt(x, UP), UP));
                }
            } else {
                int y = intAt(g, LEFT);
                if (y != 0 && red(y)) {
                    setRed(p, false);
                    setRed(y, false);
                    setRed(g, true);
                    x = g;
                } else {
                    if (x == intAt(p, LEFT)) {
                        x = p;
                        rotateRight(parent, x);
                    }
                    setRed(intAt(x, UP), false);
                    setRed(intAt(intAt(x, UP), UP), true);
                    rotateLeft(parent, intAt(intAt(x, UP), UP));
                }
            }
        }
        setRed(intAt(parent, CHILD_ROOT), false);
    }

    private void rotateLeft(int parent, int p) {
        int r = intAt(p, RIGHT);
        int rl = intAt(r, LEFT);
        setIntAt(p, RIGHT, rl);
        if (rl != 0) {
            setIntAt(rl, UP, p);
        }
        int pu = intAt(p, UP);
        setIntAt(r, UP, pu);
        if (pu == 0) {
            setIntAt(parent, CHILD_ROOT, r);
        } else if (intAt(pu, LEFT) == p) {
            setIntAt(pu, LEFT, r);
        } else {
            setIntAt(pu, RIGHT, r);
        }
        setIntAt(r, LEFT, p);
        setIntAt(p, UP, r);
    }

    private void rotateRight(int parent, int p) {
        int l = intAt(p, LEFT);
        int lr = intAt(l, RIGHT);
        setIntAt(p, LEFT, lr);
        if (lr != 0) {
            setIntAt(lr, UP, p);
        }
        int pu = intAt(p, UP);
        setIntAt(l, UP, pu);
        if (pu == 0) {
            setIntAt(parent, CHILD_ROOT, l);
        } else if (intAt(pu, RIGHT) == p) {
            setIntAt(pu, RIGHT, l);
        } else {
            setIntAt(pu, LEFT, l);
        }
        setIntAt(l, RIGHT, p);
        setIntAt(p, UP, l);
    }

    private boolean red(int n) {
        return (intAt(n, FLAGS) & RED) != 0;
    }

    private void setRed(int n, boolean red) {
        int f = intAt(n, FLAGS);
        setIntAt(n, FLAGS, red ? f | RED : f & ~RED);
    }

    private int intAt(int n, int field) {
        return ints[n >>> SHIFT][(n & MASK) * INTS + field];
    }

    private void setIntAt(int n, int field, int v) {
        ints[n >>> SHIFT][(n & MASK) * INTS + field] = v;
    }

    private long longAt(int n, int field) {
        return longs[n >>> SHIFT][(n & MASK) * LONGS + field];
    }

    private static int dsoKey(Frame f) {
        Dso d = f.dso();
        return d == null ? -1 : d.id();
    }
}
