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

    private static String perf(Path data, Path buildIds, List<String> options) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("perf", "--buildid-dir", buildIds.toString(), "annotate",
                "--stdio", "-i", data.toString()));
        cmd.addAll(options);
        Path out = dir.resolve("perf.out");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectOutput(out.toFile()).start();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), String.join(" ", cmd));
        assertEquals(0, p.exitValue(), String.join(" ", cmd));
        return Files.readString(out);
    }

    private static String jperf(Path data, Path buildIds, String symbol, Set<String> dsos, String type, boolean raw,
            Annotate.Display display) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PerfDataFile f = PerfDataFile.open(data)) {
            Annotate.run(f, new Annotate.Options(symbol, false, null, buildIds, dsos, type, raw, display), out,
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
        "c|-d inl -n",
        "c|-d inl --show-total-period",
        "c|--percent-limit 5",
        "c|--percent-limit 100",
        "c|-d inl -l",
        "c|-d inl -l --percent-type local-hits",
        "cpp|-d acc -l",
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
        boolean nr = false;
        boolean period = false;
        double limit = 0;
        boolean line = false;
        String type = null;
        for (int i = 0; i < args.size(); i++) {
            switch (args.get(i)) {
                case "--no-source" -> source = false;
                case "--asm-raw" -> raw = true;
                case "-s" -> symbol = args.get(++i);
                case "-d" -> dsos = Set.of(args.get(++i));
                case "-n" -> nr = true;
                case "-l" -> line = true;
                case "--percent-type" -> type = args.get(++i);
                case "--show-total-period" -> period = true;
                case "--percent-limit" -> limit = Double.parseDouble(args.get(++i));
                default -> throw new IllegalArgumentException(args.get(i));
            }
        }
        String perf = perf(data, dir.resolve("buildid"), args);
        assertTrue(limit >= 100 || perf.contains("Disassembly of section"), "perf annotated nothing");
        assertEquals(perf, jperf(data, dir.resolve("buildid"), symbol, dsos, type, raw,
                new Annotate.Display(source, nr, period, limit, null, line)));
    }

    /** --symfs: the binary found under the directory by its recorded path, no build-id cache to find it in. */
    @org.junit.jupiter.api.Test
    void symfs() throws Exception {
        Path root = dir.resolve("symfs");
        Path bin = dir.resolve("inl").toAbsolutePath();
        Path copy = Path.of(root + bin.toString());
        Files.createDirectories(copy.getParent());
        Files.copy(bin, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path empty = Files.createDirectories(dir.resolve("no-buildids"));
        String perf = perf(cData, empty, List.of("-d", "inl", "--symfs", root.toString()));
        assertTrue(perf.contains("Disassembly of section"), "perf annotated nothing");
        assertEquals(perf, jperf(cData, empty, null, Set.of("inl"), null, false, new Annotate.Display(true, false, false, 0, root, false)));
    }
}
