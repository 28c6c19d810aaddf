package dev.jperf.format.feature;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** NUMA_TOPOLOGY: per node {u32 node, u64 mem_total kB, u64 mem_free kB, cpu list}. */
public record NumaTopology(List<Node> nodes) implements FeatureSection {
    /** A NUMA node: its number, total and free memory in kB, and its CPUs (a cpu list). */
    public record Node(int node, long memTotal, long memFree, String cpus) {
    }

    public NumaTopology {
        nodes = List.copyOf(nodes);
    }

    public static NumaTopology decode(ByteBuffer body) {
        FeatureReader r = new FeatureReader(body, "NUMA_TOPOLOGY");
        int n = r.count("nr", 24);
        List<Node> nodes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            nodes.add(new Node(r.u32("node"), r.u64("mem_total"), r.u64("mem_free"), r.string("cpu list")));
        }
        return new NumaTopology(nodes);
    }

    @Override
    public int bit() {
        return Feature.NUMA_TOPOLOGY.bit();
    }

    @Override
    public byte[] encode() {
        FeatureWriter w = new FeatureWriter().u32(nodes.size());
        for (Node n : nodes) {
            w.u32(n.node).u64(n.memTotal).u64(n.memFree).string(n.cpus);
        }
        return w.toByteArray();
    }
}
