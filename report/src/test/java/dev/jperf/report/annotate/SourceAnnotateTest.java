package dev.jperf.report.annotate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.Corpus;
import dev.jperf.format.PerfDataFile;
import dev.jperf.report.PerfOracle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * annotate of programs built here with -g against perf annotate --stdio run live on the same
 * recording and build-id directory, the whole output byte for byte: objdump's -l lines
 * ({@code func():}, {@code file:line}, numbered as perf numbers them), -S source lines, percents,
 * addresses and instruction text. A C program with nested inline functions (format's dwarf/inl.c)
 * and a C++ one (annotate/acc.cpp: templates, demangled names, libstdc++ headers inlined). The
 * programs' own functions: the few libc samples fall in AVX-512 string functions at random, where
 * Capstone's text differs (README); NativeAnnotateTest compares libc's lines on the corpus.
 */
class SourceAnnotateTest {
    @TempDir
    static Path dir;
    static Path cData;
    static Path cppData;

    @BeforeAll
    static void record() throws Exception {
        PerfOracle.assumeInstalled();
        DisassemblerAgreementTest.assumeDisassembler();
        Path inl = Corpus.TESTDATA.getParent().resolve("format/src/test/resources/dwarf/inl.c");
        Path acc = Path.of(SourceAnnotateTest.class.getResource("/annotate/acc.cpp").toURI());
        // the sources beside the binaries: objdump -S reads them by the path DWARF names
        Files.copy(inl, dir.resolve("inl.c"));
        Files.copy(acc, dir.resolve("acc.cpp"));
        build("gcc", "inl", "inl.c");
        build("g++", "acc", "acc.cpp");
        cData = PerfOracle.record(dir, "c.data", "-e", "cpu-clock:u", "-F", "2000", dir.resolve("inl").toString(), "300");
        cppData = PerfOracle.record(dir, "cpp.data", "-e", "cpu-clock:u", "-F", "2000", dir.resolve("acc").toString(),
                "30000000");
    }

    private static void build(String cc, String out, String src) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder(cc, "-g", "-O2", "-o", out, src).directory(dir.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, cc + " is not installed: it builds the recorded program");
            throw e;
        }
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), log);
    }

    private static String perf(Path data, List<String> options) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("perf", "--buildid-dir", dir.resolve("buildid").toString(), "annotate",
                "--stdio", "-i", data.toString()));
        cmd.addAll(options);
        Path out = dir.resolve("perf.out");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectOutput(out.toFile()).start();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), String.join(" ", cmd));
        assertEquals(0, p.exitValue(), String.join(" ", cmd));
        return Files.readString(out);
    }

    private static String jperf(Path data, String symbol, Set<String> dsos, boolean raw, Annotate.Display display) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PerfDataFile f = PerfDataFile.open(data)) {
            Annotate.run(f, new Annotate.Options(symbol, false, null, dir.resolve("buildid"), dsos, null, raw, display), out,
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "c|-d inl",
        "c|-d inl --no-source",
        "c|-d inl --asm-raw",
        "c|-s work",
        "cpp|-d acc",
        "cpp|-d acc --no-source",
    })
    void agreesWithPerf(String program, String options) throws Exception {
        Path data = program.equals("c") ? cData : cppData;
        List<String> args = List.of(options.split(" "));
        String symbol = null;
        Set<String> dsos = null;
        boolean raw = false;
        boolean source = true;
        for (int i = 0; i < args.size(); i++) {
            switch (args.get(i)) {
                case "--no-source" -> source = false;
                case "--asm-raw" -> raw = true;
                case "-s" -> symbol = args.get(++i);
                case "-d" -> dsos = Set.of(args.get(++i));
                default -> throw new IllegalArgumentException(args.get(i));
            }
        }
        String perf = perf(data, args);
        assertTrue(perf.contains("Disassembly of section"), "perf annotated nothing");
        assertEquals(perf, jperf(data, symbol, dsos, raw, new Annotate.Display(source)));
    }
}
