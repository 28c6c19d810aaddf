package dev.jperf.format.feature;

import java.nio.ByteBuffer;

/** DIR_FORMAT: u64 version of a directory-format recording (data in DIR/data + DIR/data.N). */
public record DirFormat(long version) implements FeatureSection {
    public static DirFormat decode(ByteBuffer body) {
        return new DirFormat(new FeatureReader(body, "DIR_FORMAT").u64("version"));
    }

    @Override
    public int bit() {
        return Feature.DIR_FORMAT.bit();
    }

    @Override
    public byte[] encode() {
        return new FeatureWriter().u64(version).toByteArray();
    }
}
