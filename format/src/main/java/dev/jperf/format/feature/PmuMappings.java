package dev.jperf.format.feature;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** PMU_MAPPINGS: u32 nr, then nr x {u32 type, string name} ("software" = 1, "tracepoint" = 2 ...). */
public record PmuMappings(List<Pmu> pmus) implements FeatureSection {
    /** A PMU: its perf_event_attr type number and name. */
    public record Pmu(int type, String name) {
    }

    public PmuMappings {
        pmus = List.copyOf(pmus);
    }

    public static PmuMappings decode(ByteBuffer body) {
        FeatureReader r = new FeatureReader(body, "PMU_MAPPINGS");
        int n = r.count("nr", 8);
        List<Pmu> pmus = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            pmus.add(new Pmu(r.u32("type"), r.string("name")));
        }
        return new PmuMappings(pmus);
    }

    @Override
    public int bit() {
        return Feature.PMU_MAPPINGS.bit();
    }

    @Override
    public byte[] encode() {
        FeatureWriter w = new FeatureWriter().u32(pmus.size());
        for (Pmu p : pmus) {
            w.u32(p.type).string(p.name);
        }
        return w.toByteArray();
    }
}
