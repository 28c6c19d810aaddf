package dev.jperf.format.feature;

import java.nio.ByteBuffer;

/** CLOCKID: the resolution of the recording clock in ns (perf prints res x 1000 as "MHz"). */
public record ClockResolution(long resolutionNs) implements FeatureSection {
    public static ClockResolution decode(ByteBuffer body) {
        return new ClockResolution(new FeatureReader(body, "CLOCKID").u64("clockid_res_ns"));
    }

    @Override
    public int bit() {
        return Feature.CLOCKID.bit();
    }

    @Override
    public byte[] encode() {
        return new FeatureWriter().u64(resolutionNs).toByteArray();
    }
}
