package dev.jperf.format.feature;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.jperf.format.Corpus;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile bodies: every feature body of a few real files, truncated at many lengths and with
 * count-like words overwritten by huge values. Decoding must return a value or throw
 * {@link FeatureException} with a message: no other exception, no huge allocation, no hang.
 */
class FeatureHostileTest {
    static Stream<Path> files() {
        return Stream.of(FeatureBodies.corpus("a-system-wide-bpf"), FeatureBodies.corpus("g-two-events"),
                FeatureBodies.corpus("d-bpf-storm"),
                Corpus.EXTERNAL.resolve("perf_data_converter/perf.data.group_desc-4.14"),
                Corpus.EXTERNAL.resolve("perf_data_converter/perf.data.hybrid_topology"),
                Corpus.EXTERNAL.resolve("perf_data_converter/perf.data.branch_stack_spec"),
                Corpus.EXTERNAL.resolve("linux-perf-data/sleep.compressed.data"));
    }

    static final int[] HOSTILE = {0xffffffff, 0x7fffffff, 0x80000000, 0x10000000, 0xfffffff8};

    @ParameterizedTest
    @MethodSource("files")
    void truncatedAndCorruptedBodies(Path file) {
        Map<Integer, ByteBuffer> bodies = FeatureBodies.of(file).bodies;
        assertTimeoutPreemptively(Duration.ofSeconds(600), () -> { // a hang guard, generous for loaded machines
            int tried = 0;
            for (Map.Entry<Integer, ByteBuffer> e : bodies.entrySet()) {
                byte[] body = FeatureBodies.bytes(e.getValue());
                int bit = e.getKey();
                int step = Math.max(1, body.length / 200);
                for (int len = 0; len < body.length; len += step) {
                    tried += check(bit, java.util.Arrays.copyOf(body, len));
                }
                int posStep = Math.max(4, (body.length / 150) & ~3);
                for (int pos = 0; pos + 4 <= body.length; pos += pos < 256 ? 4 : posStep) {
                    for (int v : HOSTILE) {
                        byte[] bad = body.clone();
                        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(pos, v);
                        tried += check(bit, bad);
                    }
                }
            }
            assertTrue(tried > 100);
        });
    }

    private static int check(int bit, byte[] body) {
        try {
            FeatureSection s = FeatureCodec.decode(bit, ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN), 2);
            s.encode(); // whatever decoded must also encode
            if (s instanceof BpfBtfs b) {
                b.blobs().forEach(blob -> {
                    try {
                        blob.parse();
                    } catch (dev.jperf.format.btf.BtfException expected) {
                        // a clear BTF error is fine
                    }
                });
            }
        } catch (FeatureException expected) {
            assertTrue(expected.getMessage().startsWith(Feature.name(bit)), expected.getMessage());
        } catch (Throwable t) {
            fail(Feature.name(bit) + " body of " + body.length + " bytes: " + t, t);
        }
        return 1;
    }

    /** The decoded-from-garbage paths that must name the problem. */
    @org.junit.jupiter.api.Test
    void messagesNameFeatureAndProblem() {
        ByteBuffer huge = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(0, -1);
        for (Feature f : List.of(Feature.CMDLINE, Feature.PMU_MAPPINGS, Feature.BPF_PROG_INFO, Feature.BPF_BTF,
                Feature.NUMA_TOPOLOGY, Feature.GROUP_DESC, Feature.PMU_CAPS, Feature.HYBRID_TOPOLOGY)) {
            try {
                FeatureCodec.decode(f.bit(), huge.duplicate().order(ByteOrder.LITTLE_ENDIAN), -1);
                fail(f + " accepted a count of 4294967295 in 8 bytes");
            } catch (FeatureException e) {
                assertTrue(e.getMessage().startsWith(f.name() + ": ") && e.getMessage().contains("4294967295"), e.getMessage());
            }
        }
    }
}
