package dev.jperf.loader;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the external objects do not use, checked against libbpf the same way (test resources
 * {@code agreement/}: sources and objects built as the samples are): kfunc calls, a map-in-map
 * with its inner definition and initial slots, a prog array whose slot names a program (libbpf
 * refuses the object when that program is not loaded: EBADF), and the CO-RE kinds they lack (type
 * id local/target, type size, enum value, a poisoned dead access).
 */
class LibbpfAgreementTest {
    static final Path DIR = Path.of("src/test/resources/agreement");
    static final List<String> OBJECTS = List.of("kx.bpf.o", "pa.bpf.o", "core_kinds.bpf.o", "core_match.bpf.o");

    @BeforeAll
    static void needBpf() {
        LibbpfOracle.assume();
    }

    static Path libbpf() {
        return LibbpfOracle.run("agreement", OBJECTS.stream().map(DIR::resolve).toList());
    }

    static Stream<Arguments> programs() {
        return ExternalObjectsTest.arguments(libbpf());
    }

    @Test
    void sameProgramsAsLibbpf() throws Exception {
        ExternalObjectsTest.samePrograms(OBJECTS.stream().map(DIR::resolve).toList(), libbpf());
    }

    @ParameterizedTest(name = "{0} {1} ({2}): {3}")
    @MethodSource("programs")
    void loadsAsLibbpf(String object, String program, String section, String libbpf) throws Exception {
        ExternalObjectsTest.check(DIR, libbpf(), object, program, section, libbpf);
    }
}
