package dev.jperf.loader;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The open phase (ELF, BTF, .BTF.ext, maps, relocations) over damaged copies of the external
 * objects: random byte flips, runs of 0xff, and truncations, with a fixed seed. Each copy opens
 * or fails with one BpfObjectException line; nothing else escapes, nothing hangs.
 */
class OpenFuzzTest {
    static final int ITERATIONS_PER_OBJECT = 150;

    @Test
    void damagedObjectsOpenOrFailWithOneLine() throws IOException {
        Path dir = ExternalObjectsTest.DIR.resolve("obj");
        List<Path> objects;
        try (Stream<Path> s = Files.list(dir)) {
            objects = s.filter(p -> p.toString().endsWith(".o")).sorted().toList();
        }
        Random rnd = new Random(12);
        List<String> failures = new ArrayList<>();
        for (Path obj : objects) {
            byte[] clean = Files.readAllBytes(obj);
            for (int i = 0; i < ITERATIONS_PER_OBJECT; i++) {
                byte[] bad = damage(clean, rnd);
                String name = obj.getFileName() + "#" + i;
                assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
                    try {
                        BpfObject.open(name, bad).close();
                    } catch (BpfObjectException e) {
                        if (e.getMessage() == null || e.getMessage().isBlank() || e.getMessage().contains("\n")) {
                            failures.add(name + ": not one line: " + e.getMessage());
                        }
                    } catch (RuntimeException | Error e) {
                        failures.add(name + ": " + e);
                    }
                }, name);
            }
        }
        assertFalse(failures.size() > 0, failures.size() + " damaged objects escaped: " + String.join("\n", failures.subList(0,
                Math.min(20, failures.size()))));
    }

    static byte[] damage(byte[] clean, Random rnd) {
        byte[] b = clean.clone();
        switch (rnd.nextInt(4)) {
            case 0 -> {
                for (int k = 1 + rnd.nextInt(8); k > 0; k--) {
                    b[rnd.nextInt(b.length)] ^= (byte) (1 << rnd.nextInt(8));
                }
            }
            case 1 -> {
                int at = rnd.nextInt(b.length);
                for (int k = 0; k < 4 && at + k < b.length; k++) {
                    b[at + k] = (byte) 0xff;
                }
            }
            case 2 -> b = java.util.Arrays.copyOf(b, rnd.nextInt(b.length));
            default -> {
                for (int k = 1 + rnd.nextInt(64); k > 0; k--) {
                    b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
                }
            }
        }
        return b;
    }
}
