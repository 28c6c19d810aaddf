package dev.jperf.format.feature;

import java.util.Arrays;

/**
 * A body kept as bytes: features this reader does not interpret (TRACING_DATA, AUXTRACE,
 * CPU_DOMAIN_INFO, unknown bits) and, with {@code problem} set, bodies that failed to decode.
 */
public record RawFeature(int bit, byte[] body, String problem) implements FeatureSection {
    public RawFeature {
        body = body.clone();
    }

    public RawFeature(int bit, byte[] body) {
        this(bit, body, null);
    }

    @Override
    public byte[] body() {
        return body.clone();
    }

    @Override
    public byte[] encode() {
        return body.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RawFeature r && bit == r.bit && Arrays.equals(body, r.body)
                && java.util.Objects.equals(problem, r.problem);
    }

    @Override
    public int hashCode() {
        return bit * 31 + Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return "RawFeature[" + Feature.name(bit) + ", " + body.length + " bytes" + (problem == null ? "" : ", " + problem) + "]";
    }
}
