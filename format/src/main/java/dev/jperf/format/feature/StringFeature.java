package dev.jperf.format.feature;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;

/** HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID: one perf string. */
public record StringFeature(Feature kind, String value) implements FeatureSection {
    public static final Set<Feature> KINDS = EnumSet.of(Feature.HOSTNAME, Feature.OSRELEASE, Feature.VERSION,
            Feature.ARCH, Feature.CPUDESC, Feature.CPUID);

    public StringFeature {
        if (!KINDS.contains(kind)) {
            throw new IllegalArgumentException(kind + " is not a string feature");
        }
    }

    public static StringFeature decode(Feature kind, ByteBuffer body) {
        FeatureReader r = new FeatureReader(body, kind.name());
        return new StringFeature(kind, r.string("string"));
    }

    @Override
    public int bit() {
        return kind.bit();
    }

    @Override
    public byte[] encode() {
        return new FeatureWriter().string(value).toByteArray();
    }
}
