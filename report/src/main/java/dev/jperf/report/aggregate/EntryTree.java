package dev.jperf.report.aggregate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * perf's rb-trees of hist entries (lib/rbtree.c's insertion, whose shapes java.util.TreeMap's
 * red-black tree makes too): the input tree searched sample by sample, its collapsed copy, the
 * replays. perf's comparator is not always a total order (sort__sym_cmp), so which entry a search
 * finds can depend on the tree's shape, and the shape must be perf's.
 *
 * <p>A search tree also says which searches may now end elsewhere ({@link #version()}): a search
 * that found an entry takes the same path while no node on it was rotated or changed its
 * comparisons ({@link #changed}); adding a leaf changes no existing path. Each such event stamps
 * the entries of the subtree whose paths it touched ({@link HistEntry#pathStamp}).
 */
final class EntryTree {
    private static final boolean RED = false;
    private static final boolean BLACK = true;

    static final class Node {
        final HistEntry key;
        Node left;
        Node right;
        Node parent;
        boolean color = BLACK;

        Node(HistEntry key, Node parent) {
            this.key = key;
            this.parent = parent;
        }
    }

    /** compare(new entry, node's entry): negative goes left, positive right, 0 found. */
    private final Comparator<HistEntry> order;
    private final boolean stamps;
    private Node root;
    private int size;
    private int version;
    /** The top of the last insertion's rotations (stamping). */
    private Node rotated;
    private Node[] stack = new Node[64];

    /**
     * @param stamps whether this is a search tree whose entries carry path stamps (they then
     *     belong to this tree alone)
     */
    EntryTree(Comparator<HistEntry> order, boolean stamps) {
        this.order = order;
        this.stamps = stamps;
    }

    int size() {
        return size;
    }

    /**
     * Bumped by every event that may change where a search ends: a search result found at this
     * version stays valid while its entry's {@link HistEntry#pathStamp} is not above it.
     */
    int version() {
        return version;
    }

    /** The entry the search for {@code key} finds, or null. */
    HistEntry get(HistEntry key) {
        Node p = root;
        while (p != null) {
            int c = order.compare(key, p.key);
            if (c < 0) {
                p = p.left;
            } else if (c > 0) {
                p = p.right;
            } else {
                return p.key;
            }
        }
        return null;
    }

    /** TreeMap.lowerKey: the last entry the search for {@code key} passes on its right. */
    HistEntry lower(HistEntry key) {
        HistEntry best = null;
        Node p = root;
        while (p != null) {
            if (order.compare(key, p.key) > 0) {
                best = p.key;
                p = p.right;
            } else {
                p = p.left;
            }
        }
        return best;
    }

    /** Inserts {@code e} where its search ends, unless the search finds an entry (then returned). */
    HistEntry findOrInsert(HistEntry e) {
        Node t = root;
        if (t == null) {
            root = new Node(e, null);
            size = 1;
            placed(root);
            return null;
        }
        Node parent;
        int c;
        do {
            parent = t;
            c = order.compare(e, t.key);
            if (c < 0) {
                t = t.left;
            } else if (c > 0) {
                t = t.right;
            } else {
                return t.key;
            }
        } while (t != null);
        Node n = new Node(e, parent);
        if (c < 0) {
            parent.left = n;
        } else {
            parent.right = n;
        }
        rotated = null;
        fixAfterInsertion(n);
        size++;
        placed(n);
        if (rotated != null && stamps) {
            stamp(rotated);
        }
        return null;
    }

    /** The entries in order. */
    List<HistEntry> keys() {
        List<HistEntry> out = new ArrayList<>(size);
        Node n = root;
        int depth = 0;
        while (n != null || depth > 0) {
            while (n != null) {
                push(depth++, n);
                n = n.left;
            }
            n = stack[--depth];
            out.add(n.key);
            n = n.right;
        }
        return out;
    }

    /** {@code e}'s comparisons changed (its DSO): searches through it may end elsewhere. */
    void changed(HistEntry e) {
        if (e.treeNode != null) {
            stamp(e.treeNode);
        }
    }

    private void placed(Node n) {
        if (stamps) {
            n.key.treeNode = n;
            n.key.pathStamp = version;
        }
    }

    /** Stamps the subtree under {@code top} with a new version. */
    private void stamp(Node top) {
        int v = ++version;
        int depth = 0;
        push(depth++, top);
        while (depth > 0) {
            Node n = stack[--depth];
            n.key.pathStamp = v;
            if (n.left != null) {
                push(depth++, n.left);
            }
            if (n.right != null) {
                push(depth++, n.right);
            }
        }
    }

    private void push(int depth, Node n) {
        if (depth == stack.length) {
            stack = Arrays.copyOf(stack, depth * 2);
        }
        stack[depth] = n;
    }

    // java.util.TreeMap's balancing (CLR), node for node

    private static boolean colorOf(Node p) {
        return p == null ? BLACK : p.color;
    }

    private static Node parentOf(Node p) {
        return p == null ? null : p.parent;
    }

    private static void setColor(Node p, boolean c) {
        if (p != null) {
            p.color = c;
        }
    }

    private static Node leftOf(Node p) {
        return p == null ? null : p.left;
    }

    private static Node rightOf(Node p) {
        return p == null ? null : p.right;
    }

    private void rotateLeft(Node p) {
        if (p != null) {
            Node r = p.right;
            p.right = r.left;
            if (r.left != null) {
                r.left.parent = p;
            }
            r.parent = p.parent;
            if (p.parent == null) {
                root = r;
            } else if (p.parent.left == p) {
                p.parent.left = r;
            } else {
                p.parent.right = r;
            }
            r.left = p;
            p.parent = r;
            rotated = r;
        }
    }

    private void rotateRight(Node p) {
        if (p != null) {
            Node l = p.left;
            p.left = l.right;
            if (l.right != null) {
                l.right.parent = p;
            }
            l.parent = p.parent;
            if (p.parent == null) {
                root = l;
            } else if (p.parent.right == p) {
                p.parent.right = l;
            } else {
                p.parent.left = l;
            }
            l.right = p;
            p.parent = l;
            rotated = l;
        }
    }

    private void fixAfterInsertion(Node x) {
        x.color = RED;
        while (x != null && x != root && x.parent.color == RED) {
            if (parentOf(x) == leftOf(parentOf(parentOf(x)))) {
                Node y = rightOf(parentOf(parentOf(x)));
                if (colorOf(y) == RED) {
                    setColor(parentOf(x), BLACK);
                    setColor(y, BLACK);
                    setColor(parentOf(parentOf(x)), RED);
                    x = parentOf(parentOf(x));
                } else {
                    if (x == rightOf(parentOf(x))) {
                        x = parentOf(x);
                        rotateLeft(x);
                    }
                    setColor(parentOf(x), BLACK);
                    setColor(parentOf(parentOf(x)), RED);
                    rotateRight(parentOf(parentOf(x)));
                }
            } else {
                Node y = leftOf(parentOf(parentOf(x)));
                if (colorOf(y) == RED) {
                    setColor(parentOf(x), BLACK);
                    setColor(y, BLACK);
                    setColor(parentOf(parentOf(x)), RED);
                    x = parentOf(parentOf(x));
                } else {
                    if (x == leftOf(parentOf(x))) {
                        x = parentOf(x);
                        rotateRight(x);
                    }
                    setColor(parentOf(x), BLACK);
                    setColor(parentOf(parentOf(x)), RED);
                    rotateLeft(parentOf(parentOf(x)));
                }
            }
        }
        root.color = BLACK;
    }
}
