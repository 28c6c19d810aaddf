package dev.jperf.format.feature;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** PMU_CAPS: u32 nr_pmus; per PMU {u32 nr_caps, nr_caps x (string name, string value), string pmu_name}. */
public record PmuCaps(List<Pmu> pmus) implements FeatureSection {
    /** A PMU's name and capabilities. */
    public record Pmu(String name, List<PmuCap> caps) {
        public Pmu {
            caps = List.copyOf(caps);
        }
    }

    public PmuCaps {
        pmus = List.copyOf(pmus);
    }

    public static PmuCaps decode(ByteBuffer body) {
        FeatureReader r = new FeatureReader(body, "PMU_CAPS");
        int n = r.count("nr_pmus", 8);
        List<Pmu> pmus = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            List<PmuCap> caps = readCaps(r);
            pmus.add(new Pmu(r.string("pmu_name"), caps));
        }
        return new PmuCaps(pmus);
    }

    static List<PmuCap> readCaps(FeatureReader r) {
        int n = r.count("nr_caps", 8);
        List<PmuCap> caps = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            caps.add(new PmuCap(r.string("cap name"), r.string("cap value")));
        }
        return caps;
    }

    static void writeCaps(FeatureWriter w, List<PmuCap> caps) {
        w.u32(caps.size());
        caps.forEach(c -> w.string(c.name()).string(c.value()));
    }

    @Override
    public int bit() {
        return Feature.PMU_CAPS.bit();
    }

    @Override
    public byte[] encode() {
        FeatureWriter w = new FeatureWriter().u32(pmus.size());
        for (Pmu p : pmus) {
            writeCaps(w, p.caps);
            w.string(p.name);
        }
        return w.toByteArray();
    }
}
