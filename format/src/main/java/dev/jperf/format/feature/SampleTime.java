package dev.jperf.format.feature;

import java.nio.ByteBuffer;

/** SAMPLE_TIME: first and last sample time in ns (0/0 in pipe mode). */
public record SampleTime(long first, long last) implements FeatureSection {
    public static SampleTime decode(ByteBuffer body) {
        FeatureReader r = new FeatureReader(body, "SAMPLE_TIME");
        return new SampleTime(r.u64("first"), r.u64("last"));
    }

    @Override
    public int bit() {
        return Feature.SAMPLE_TIME.bit();
    }

    @Override
    public byte[] encode() {
        return new FeatureWriter().u64(first).u64(last).toByteArray();
    }
}
