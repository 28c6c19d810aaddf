package dev.jperf.format.feature;

import java.nio.file.Path;

/** Test access to corpus feature bodies for other packages' tests. */
public final class TestFiles {
    private TestFiles() {
    }

    /** The decoded features of a perf.data file, cut out by the test helper (no reader core). */
    public static Features features(Path perfData) {
        return Features.decode(FeatureBodies.of(perfData).bodies);
    }

    public static java.util.Map<Integer, java.nio.ByteBuffer> bodies(Path perfData) {
        return FeatureBodies.of(perfData).bodies;
    }
}
