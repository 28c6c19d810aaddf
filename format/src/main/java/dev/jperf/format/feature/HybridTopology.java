package dev.jperf.format.feature;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** HYBRID_TOPOLOGY: u32 nr, then nr x {string pmu_name, string cpus}. */
public record HybridTopology(List<Node> nodes) implements FeatureSection {
    /** A core type of a hybrid CPU: its PMU and the CPUs that have it (a cpu list, "0-7"). */
    public record Node(String pmuName, String cpus) {
    }

    public HybridTopology {
        nodes = List.copyOf(nodes);
    }

    public static HybridTopology decode(ByteBuffer body) {
        FeatureReader r = new FeatureReader(body, "HYBRID_TOPOLOGY");
        int n = r.count("nr", 8);
        List<Node> nodes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            nodes.add(new Node(r.string("pmu_name"), r.string("cpus")));
        }
        return new HybridTopology(nodes);
    }

    @Override
    public int bit() {
        return Feature.HYBRID_TOPOLOGY.bit();
    }

    @Override
    public byte[] encode() {
        FeatureWriter w = new FeatureWriter().u32(nodes.size());
        nodes.forEach(n -> w.string(n.pmuName).string(n.cpus));
        return w.toByteArray();
    }
}
