package dev.jperf.report.aggregate;

import dev.jperf.report.session.Frame;
import java.util.Arrays;

/**
 * The call graph of one report entry (perf's struct callchain_root): every chain appended to the
 * entry, merged into a tree of frame positions with the period of the samples that went through
 * and ended at each position, and the longest chain appended (perf's max_depth, which orders
 * entries of equal children period: callers first).
 */
public final class Callchain {
    private final CallchainNodes nodes;
    private final int root;
    private int maxDepth;

    /** An empty call graph whose nodes live in {@code nodes} (one store per report). */
    Callchain(CallchainNodes nodes) {
        this.nodes = nodes;
        this.root = nodes.add(null);
    }

    /** The root: no frame, its children are the first frames of the chains. */
    public CallchainNode root() {
        return new CallchainNode(nodes, root);
    }

    public int maxDepth() {
        return maxDepth;
    }

    /**
     * perf's callchain_append with the cursor at {@code from}: chain[from..end) of {@code count}
     * samples with {@code period} in all.
     */
    public void append(Frame[] chain, int from, int end, long period, long count) {
        int n = end - from;
        if (n <= 0) {
            return;
        }
        int node = root;
        for (int i = from; i < end; i++) {
            nodes.pass(node, period, count);
            node = nodes.childFor(node, chain[i]);
        }
        nodes.end(node, period, count);
        if (n > maxDepth) {
            maxDepth = n;
        }
    }

    /**
     * perf's callchain_merge(dst = this, src), as its collapse pass merges two entries: each chain
     * that ends in {@code src} appended again with that end's period, as one sample each
     * (append_chain_children counts one per append); the longest chain (max_depth) stays this one's.
     */
    void merge(Callchain src) {
        merge(src.nodes, src.root, new Frame[Math.max(1, src.maxDepth)], 0);
    }

    private void merge(CallchainNodes from, int n, Frame[] path, int depth) {
        long hit = from.hit(n);
        if (hit != 0) {
            int keep = maxDepth;
            append(path, 0, depth, hit, 1);
            maxDepth = keep;
        }
        for (int c : from.children(n)) {
            if (depth == path.length) {
                path = Arrays.copyOf(path, depth * 2);
            }
            path[depth] = from.frame(c);
            merge(from, c, path, depth + 1);
        }
    }
}
