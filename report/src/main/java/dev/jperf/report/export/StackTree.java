package dev.jperf.report.export;

import dev.jperf.format.collect.HashIndex;
import java.util.Arrays;

/**
 * Distinct stacks as a tree of int-keyed nodes (node 0 is the root): a stack is the path from the
 * root to a node, caller first, and each node holds the samples and period of the stacks that end
 * there ("self"), per event. Memory grows with distinct stacks, never with samples: every export
 * streams its samples into one of these.
 */
final class StackTree {
    static final int ROOT = 0;

    private final int events;
    private int size = 1;
    private int[] parent = new int[1024];
    private int[] key = new int[1024];
    /** Per node and event: samples at 2*(node*events+e), period at 2*(node*events+e)+1. */
    private long[] self;
    /** (parent, key) -> node: entry e of the index is node e + 1 (the root is never looked up). */
    private final HashIndex index = new HashIndex(1024);
    /** Per entry (node - 1): its hash, for the index to grow. */
    private int[] hashes = new int[1024];

    StackTree(int events) {
        this.events = events;
        this.self = new long[1024 * 2 * events];
        key[ROOT] = -1;
        parent[ROOT] = -1;
    }

    int events() {
        return events;
    }

    int size() {
        return size;
    }

    int parent(int node) {
        return parent[node];
    }

    int key(int node) {
        return key[node];
    }

    /** The child of {@code node} with key {@code k}, created when new. */
    int child(int node, int k) {
        int h = hash(node, k);
        int slot = index.first(h);
        for (int e; (e = index.entry(slot)) >= 0; slot = index.next(slot)) {
            if (parent[e + 1] == node && key[e + 1] == k) {
                return e + 1;
            }
        }
        int n = size++;
        if (n == parent.length) {
            int cap = n * 2;
            parent = Arrays.copyOf(parent, cap);
            key = Arrays.copyOf(key, cap);
            self = Arrays.copyOf(self, cap * 2 * events);
            hashes = Arrays.copyOf(hashes, cap);
        }
        parent[n] = node;
        key[n] = k;
        hashes[n - 1] = h;
        index.put(slot, hashes);
        return n;
    }

    void add(int node, int event, long samples, long period) {
        int at = 2 * (node * events + event);
        self[at] += samples;
        self[at + 1] += period;
    }

    long selfSamples(int node, int event) {
        return self[2 * (node * events + event)];
    }

    long selfPeriod(int node, int event) {
        return self[2 * (node * events + event) + 1];
    }

    /** Whether any event's samples end at {@code node}. */
    boolean hasSelf(int node) {
        for (int e = 0; e < events; e++) {
            if (self[2 * (node * events + e)] != 0) {
                return true;
            }
        }
        return false;
    }

    /** The keys from the root's child down to {@code node} (caller first) into {@code out}; their count. */
    int path(int node, int[] out) {
        int d = depth(node);
        for (int n = node, i = d - 1; n != ROOT; n = parent[n], i--) {
            out[i] = key[n];
        }
        return d;
    }

    int depth(int node) {
        int d = 0;
        for (int n = node; n != ROOT; n = parent[n]) {
            d++;
        }
        return d;
    }

    private static int hash(int node, int k) {
        long h = ((long) node << 32 | (k & 0xffffffffL)) * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 29));
    }
}
