package dev.jperf.format.feature;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** CMDLINE: the recorder's absolute path followed by argv[1..]. */
public record Cmdline(List<String> argv) implements FeatureSection {
    public Cmdline {
        argv = List.copyOf(argv);
    }

    public static Cmdline decode(ByteBuffer body) {
        FeatureReader r = new FeatureReader(body, "CMDLINE");
        int n = r.count("nr", 4);
        List<String> argv = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            argv.add(r.string("argv[" + i + "]"));
        }
        return new Cmdline(argv);
    }

    @Override
    public int bit() {
        return Feature.CMDLINE.bit();
    }

    @Override
    public byte[] encode() {
        FeatureWriter w = new FeatureWriter().u32(argv.size());
        for (String a : argv) {
            w.string(a);
        }
        return w.toByteArray();
    }
}
