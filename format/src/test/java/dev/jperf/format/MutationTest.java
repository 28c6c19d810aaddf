package dev.jperf.format;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.io.ByteSource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile input: corpus files with random bytes overwritten or cut short. Opening may fail only
 * with {@link PerfDataException}; reading records never throws, ends, and each problem is one line.
 */
class MutationTest {

    private static void readAll(PerfDataFile f) {
        long n = 0;
        try (RecordStream rs = f.records()) {
            while (rs.hasNext()) {
                rs.next();
                n++;
            }
        }
        f.features(); // the feature decoders get the same damaged bodies
        for (String w : f.warnings()) {
            assertTrue(!w.contains("\n"), w);
        }
        assertTrue(n >= 0);
    }

    /** Mutated images per file: with both read paths, thousands of damaged reads per run. */
    private static final int ROUNDS = 400;

    /** Every corpus recording, plus external vectors for compression, COMPRESSED2 and BPF info. */
    static Stream<String> files() throws IOException {
        Stream<String> corpus;
        try (Stream<Path> dirs = Files.list(Corpus.CORPUS)) {
            corpus = dirs.map(d -> d.resolve("perf.data")).filter(Files::isRegularFile).sorted()
                    .map(p -> "corpus/" + p.getParent().getFileName() + "/perf.data").toList().stream();
        }
        return Stream.concat(corpus, Stream.of("external/linux-perf-data/sleep.compressed.data",
                "external/linux-perf-data/fibo.compressed2.pipe.data",
                "external/perf_data_converter/perf.data.branch_stack_spec"));
    }

    @ParameterizedTest
    @MethodSource("files")
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void randomDamageNeverEscapes(String name) throws IOException {
        byte[] orig = Files.readAllBytes(Corpus.TESTDATA.resolve(name));
        Random rnd = new Random(name.hashCode());
        for (int round = 0; round < ROUNDS; round++) {
            byte[] b = orig.clone();
            int len = b.length;
            switch (round % 3) {
                case 0 -> { // a few random bytes anywhere (header, attrs, records, features)
                    for (int k = 0; k < 1 + rnd.nextInt(8); k++) {
                        b[rnd.nextInt(len)] = (byte) rnd.nextInt(256);
                    }
                }
                case 1 -> len = 16 + rnd.nextInt(len - 16); // cut short
                default -> { // a u64 field set to a huge value at a random 8-aligned place
                    int at = rnd.nextInt(len / 8) * 8;
                    java.nio.ByteBuffer.wrap(b).putLong(at, rnd.nextBoolean() ? -1L : Long.MAX_VALUE / 3);
                }
            }
            byte[] img = java.util.Arrays.copyOf(b, len);
            try (PerfDataFile f = PerfDataFile.open(name, ByteSource.wrap(name, img))) {
                readAll(f);
            } catch (PerfDataException e) {
                assertTrue(e.getMessage().startsWith(name) && !e.getMessage().contains("\n"), e.getMessage());
            }
            try (PerfDataFile f = PerfDataFile.open("stdin", new ByteArrayInputStream(img))) {
                readAll(f);
            } catch (PerfDataException e) {
                assertTrue(!e.getMessage().contains("\n"), e.getMessage());
            }
        }
    }
}
