package dev.jperf.format.feature;

import java.nio.ByteBuffer;
import java.util.List;

/** CPU_PMU_CAPS: u32 nr, then nr x {string name, string value} of the "cpu" PMU. */
public record CpuPmuCaps(List<PmuCap> caps) implements FeatureSection {
    public CpuPmuCaps {
        caps = List.copyOf(caps);
    }

    public static CpuPmuCaps decode(ByteBuffer body) {
        FeatureReader r = new FeatureReader(body, "CPU_PMU_CAPS");
        return new CpuPmuCaps(PmuCaps.readCaps(r));
    }

    @Override
    public int bit() {
        return Feature.CPU_PMU_CAPS.bit();
    }

    @Override
    public byte[] encode() {
        FeatureWriter w = new FeatureWriter();
        PmuCaps.writeCaps(w, caps);
        return w.toByteArray();
    }
}
