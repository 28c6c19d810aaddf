package dev.jperf.format.feature;

import java.nio.ByteBuffer;

/** TOTAL_MEM: MemTotal in kB. */
public record TotalMem(long kilobytes) implements FeatureSection {
    public static TotalMem decode(ByteBuffer body) {
        return new TotalMem(new FeatureReader(body, "TOTAL_MEM").u64("total_mem"));
    }

    @Override
    public int bit() {
        return Feature.TOTAL_MEM.bit();
    }

    @Override
    public byte[] encode() {
        return new FeatureWriter().u64(kilobytes).toByteArray();
    }
}
