package dev.jperf.report.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.PerfDataFile;
import dev.jperf.report.CorpusFixture;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code jperf script -F pid,tid,time,ip} against perf 6.1's {@code perf script} of the files
 * other tools and machines wrote (testdata/external: perf 3.2 to 6.12, four architectures, file
 * and pipe mode, callchains of 255 entries, branch stacks, compressed streams). The goldens keep
 * perf's first 5000 lines and need no symbols, so they hold here.
 *
 * <p>Left out: perf.data.intel_pt-4.14, where perf prints samples it synthesizes by decoding the
 * Intel PT trace (and its decoder errors); jperf does not decode AUX data.
 */
class ScriptExternalTest {
    static final Path EXTERNAL = CorpusFixture.EXTERNAL;

    static Stream<String> cases() throws IOException {
        Assumptions.assumeTrue(Files.isDirectory(EXTERNAL.resolve("golden")), "no external vectors at " + EXTERNAL);
        try (Stream<Path> s = Files.list(EXTERNAL.resolve("golden"))) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".samples.txt"))
                    .map(n -> n.substring(0, n.length() - ".samples.txt".length()))
                    .filter(n -> !n.equals("perf.data.intel_pt-4.14")).sorted().toList().stream();
        }
    }

    static Map<String, Path> files() throws IOException {
        try (Stream<Path> s = Files.walk(EXTERNAL)) {
            return s.filter(Files::isRegularFile).filter(p -> !p.startsWith(EXTERNAL.resolve("golden")))
                    .collect(Collectors.toMap(p -> p.getFileName().toString(), Function.identity(), (a, b) -> a));
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void samplesAgreeWithPerf(String name) throws IOException {
        Path file = files().get(name);
        assertTrue(file != null, name + " not found under " + EXTERNAL);
        List<String> want = Files.readAllLines(EXTERNAL.resolve("golden").resolve(name + ".samples.txt"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PerfDataFile f = PerfDataFile.open(file)) {
            Script.run(f, Script.Options.defaults().withBuildIdDir(CorpusFixture.buildIdDir()).withFields("pid,tid,time,ip"), out);
        }
        List<String> got = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertTrue(got.size() >= want.size(), got.size() + " lines, perf printed " + want.size());
        assertEquals(want, got.subList(0, want.size()));
        if (want.size() < 5000) {
            assertEquals(want.size(), got.size(), "perf printed everything: so must we");
        }
    }
}
