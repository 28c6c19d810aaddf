package dev.jperf.recorder.stat;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A private directory in bpffs for one test: pins made under it (a private perf_attr_map and what
 * it holds) go with it, which lets the leaders they keep alive go too. Skips the test where bpf(2)
 * needs a root the test does not have; mounts bpffs where a new machine has none.
 */
public final class PrivateBpffsDir implements AutoCloseable {
    private final Path dir;

    private PrivateBpffsDir(Path dir) {
        this.dir = dir;
    }

    /** Makes {@code /sys/fs/bpf/<prefix>...}; the calling test is skipped without root. */
    public static PrivateBpffsDir create(String prefix) throws IOException {
        assumeTrue(Files.readString(Path.of("/proc/self/status")).matches("(?s).*\\nUid:\\s+0\\s.*"),
                "needs root for bpf(2)");
        BperfAttrMap.mountBpffs();
        return new PrivateBpffsDir(Files.createTempDirectory(Path.of("/sys/fs/bpf"), prefix));
    }

    public Path path() {
        return dir;
    }

    /** The private attr map's path: the perf_attr_map a run given {@code --bpf-attr-map} pins. */
    public Path attrMap() {
        return dir.resolve("perf_attr_map");
    }

    /** Removes the directory and every pin under it, deepest first. */
    @Override
    public void close() throws IOException {
        List<Path> all;
        try (Stream<Path> s = Files.walk(dir)) {
            all = s.sorted(Comparator.reverseOrder()).toList();
        }
        for (Path p : all) {
            Files.delete(p);
        }
    }
}
