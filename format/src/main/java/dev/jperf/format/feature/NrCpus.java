package dev.jperf.format.feature;

import java.nio.ByteBuffer;

/** NRCPUS: nr_cpus_avail (highest present CPU + 1) first, then nr_cpus_online. */
public record NrCpus(int available, int online) implements FeatureSection {
    public static NrCpus decode(ByteBuffer body) {
        FeatureReader r = new FeatureReader(body, "NRCPUS");
        return new NrCpus(r.u32("nr_cpus_avail"), r.u32("nr_cpus_online"));
    }

    @Override
    public int bit() {
        return Feature.NRCPUS.bit();
    }

    @Override
    public byte[] encode() {
        return new FeatureWriter().u32(available).u32(online).toByteArray();
    }
}
