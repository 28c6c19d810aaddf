package dev.jperf.format.feature;

import java.nio.ByteBuffer;

/** CLOCK_DATA: u32 version (1), u32 clockid, u64 wall-clock ns, u64 clockid ns taken at the same instant. */
public record ClockData(int version, int clockid, long todNs, long clockidNs) implements FeatureSection {
    public static ClockData decode(ByteBuffer body) {
        FeatureReader r = new FeatureReader(body, "CLOCK_DATA");
        int version = r.u32("version");
        if (version != 1) {
            throw r.error("unsupported version " + version);
        }
        return new ClockData(version, r.u32("clockid"), r.u64("tod_ns"), r.u64("clockid_ns"));
    }

    @Override
    public int bit() {
        return Feature.CLOCK_DATA.bit();
    }

    @Override
    public byte[] encode() {
        return new FeatureWriter().u32(version).u32(clockid).u64(todNs).u64(clockidNs).toByteArray();
    }
}
