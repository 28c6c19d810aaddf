package dev.jperf.loader;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.NativeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the external objects do not use, checked against libbpf the same way (test resources
 * {@code agreement/}: sources, objects built as the samples are, and golden.c's output for them):
 * kfunc calls, a map-in-map with its inner definition and initial slots, a prog array whose slot
 * names a program (libbpf refuses the object when that program is not loaded: EBADF), and the
 * CO-RE kinds they lack (type id local/target, type size, enum value, a poisoned dead access).
 */
class LibbpfAgreementTest {
    static final Path DIR = Path.of("src/test/resources/agreement");

    @BeforeAll
    static void needBpf() {
        assumeTrue(Files.isDirectory(DIR), "no " + DIR);
        try {
            new Bpf().progGetNextId(0);
        } catch (NativeException e) {
            assumeTrue(false, "bpf(2) refused here: " + e.getMessage());
        }
    }

    static Stream<Arguments> programs() throws IOException {
        List<Arguments> out = new ArrayList<>();
        for (String line : Files.readAllLines(DIR.resolve("golden/loads.tsv"))) {
            String[] f = line.split("\t");
            out.add(Arguments.of(f[0], f[1], f[2], f[3]));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} ({2}): {3}")
    @MethodSource("programs")
    void loadsAsLibbpf(String object, String program, String section, String libbpf) throws Exception {
        ExternalObjectsTest.check(DIR, DIR.resolve("golden"), object, program, section, libbpf);
    }
}
