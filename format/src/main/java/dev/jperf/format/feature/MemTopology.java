package dev.jperf.format.feature;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * MEM_TOPOLOGY: u64 version (1), u64 block_size, u64 nr; per node {u64 node, u64 size (bits),
 * bitmap: u64 nbits then ceil(nbits / 64) u64 words} - the memory blocks of each node.
 */
public record MemTopology(long version, long blockSize, List<Node> nodes) implements FeatureSection {
    public MemTopology {
        nodes = List.copyOf(nodes);
    }

    /** One node; {@code bitmapBits} is the bitmap's own length word (perf writes size twice). */
    public record Node(long node, long size, long bitmapBits, long[] bitmap) {
        public Node {
            if (bitmap.length != (int) ((bitmapBits + 63) >>> 6)) {
                throw new IllegalArgumentException("bitmap of " + bitmapBits + " bits needs "
                        + ((bitmapBits + 63) >>> 6) + " words, got " + bitmap.length);
            }
            bitmap = bitmap.clone();
        }

        @Override
        public long[] bitmap() {
            return bitmap.clone();
        }

        /** Number of set bits: memory blocks in this node. */
        public int blocks() {
            int n = 0;
            for (long w : bitmap) {
                n += Long.bitCount(w);
            }
            return n;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Node n && node == n.node && size == n.size && bitmapBits == n.bitmapBits
                    && Arrays.equals(bitmap, n.bitmap);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(node) * 31 + Arrays.hashCode(bitmap);
        }

        @Override
        public String toString() {
            return "Node[" + node + ", size=" + size + ", blocks=" + blocks() + "]";
        }
    }

    public static MemTopology decode(ByteBuffer body) {
        FeatureReader r = new FeatureReader(body, "MEM_TOPOLOGY");
        long version = r.u64("version");
        long bsize = r.u64("block_size");
        long nr = r.u64("nr");
        if (nr < 0 || nr > r.remaining() / 24) {
            throw r.error("nr = " + Long.toUnsignedString(nr) + " nodes cannot fit");
        }
        List<Node> nodes = new ArrayList<>((int) nr);
        for (int i = 0; i < nr; i++) {
            long node = r.u64("node");
            long size = r.u64("size");
            long bits = r.u64("bitmap size");
            long words = (bits >>> 6) + ((bits & 63) != 0 ? 1 : 0);
            if (bits < 0 || words * 8 > r.remaining()) {
                throw r.error("bitmap of " + Long.toUnsignedString(bits) + " bits does not fit");
            }
            long[] map = new long[(int) words];
            for (int j = 0; j < map.length; j++) {
                map[j] = r.u64("bitmap");
            }
            nodes.add(new Node(node, size, bits, map));
        }
        return new MemTopology(version, bsize, nodes);
    }

    @Override
    public int bit() {
        return Feature.MEM_TOPOLOGY.bit();
    }

    @Override
    public byte[] encode() {
        FeatureWriter w = new FeatureWriter().u64(version).u64(blockSize).u64(nodes.size());
        for (Node n : nodes) {
            w.u64(n.node).u64(n.size).u64(n.bitmapBits);
            for (long x : n.bitmap) {
                w.u64(x);
            }
        }
        return w.toByteArray();
    }
}
