package dev.jperf.format.feature;

/**
 * A feature section body that cannot be decoded. The message names the feature and the problem in
 * one line; callers report it as a warning and keep using the rest of the file.
 */
public final class FeatureException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public FeatureException(String message) {
        super(message, null, false, false);
    }
}
