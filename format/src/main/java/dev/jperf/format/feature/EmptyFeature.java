package dev.jperf.format.feature;

/** BRANCH_STACK, STAT: the bit's presence is the information; the body is empty. */
public record EmptyFeature(int bit) implements FeatureSection {
    @Override
    public byte[] encode() {
        return new byte[0];
    }
}
