package dev.jperf.format.feature;

import java.nio.ByteBuffer;

/** COMPRESSED: u32 version (0), u32 type (1 = zstd), u32 level, u32 ratio, u32 mmap_len. */
public record Compression(int version, int type, int level, int ratio, int mmapLen) implements FeatureSection {
    /** PERF_COMP_ZSTD. */
    public static final int ZSTD = 1;

    public static Compression decode(ByteBuffer body) {
        FeatureReader r = new FeatureReader(body, "COMPRESSED");
        return new Compression(r.u32("version"), r.u32("type"), r.u32("level"), r.u32("ratio"), r.u32("mmap_len"));
    }

    @Override
    public int bit() {
        return Feature.COMPRESSED.bit();
    }

    @Override
    public byte[] encode() {
        return new FeatureWriter().u32(version).u32(type).u32(level).u32(ratio).u32(mmapLen).toByteArray();
    }
}
