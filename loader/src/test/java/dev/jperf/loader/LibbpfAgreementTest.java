package dev.jperf.loader;

import java.io.IOException;
import java.nio.file.Path;
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
        ExternalObjectsTest.assumeBpf(DIR);
    }

    static Stream<Arguments> programs() throws IOException {
        return ExternalObjectsTest.programs(DIR);
    }

    @ParameterizedTest(name = "{0} {1} ({2}): {3}")
    @MethodSource("programs")
    void loadsAsLibbpf(String object, String program, String section, String libbpf) throws Exception {
        ExternalObjectsTest.check(DIR, DIR.resolve("golden"), object, program, section, libbpf);
    }
}
