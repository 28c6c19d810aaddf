package dev.jperf.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.NativeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * libbpf, run live on the running kernel, as the loader's oracle: {@code src/test/c/golden.c}
 * built with gcc against the system's libbpf (Debian: libbpf-dev) into {@code target/}, then run
 * once per test run on each set of objects. Its answers are never kept: helper-call immediates
 * and inlined kernel addresses in xlated code belong to one kernel build.
 */
final class LibbpfOracle {
    static final Path SOURCE = Path.of("src/test/c/golden.c");
    static final Path WORK = Path.of("target", "libbpf-oracle");
    static final String PACKAGES = "apt-get install gcc libbpf-dev";

    /** One line of golden.c's loads.tsv: what libbpf answered when {@code program} alone was loaded. */
    record Load(String object, String program, String section, String answer) {
    }

    private static Path binary;
    private static String unavailable;
    private static final Map<String, Path> RUNS = new HashMap<>();

    private LibbpfOracle() {
    }

    /**
     * Skips unless bpf(2) answers here (the reason: the kernel's errno) and golden.c builds (the
     * reason: the packages missing).
     */
    static void assume() {
        try {
            new Bpf().progGetNextId(0);
        } catch (NativeException e) {
            assumeTrue(false, "bpf(2) refused here: " + e.getMessage());
        }
        String why = build();
        assumeTrue(why == null, why);
    }

    /** Builds golden.c once: null, or why it cannot be built here. */
    private static synchronized String build() {
        if (binary != null || unavailable != null) {
            return unavailable;
        }
        try {
            deleteTree(WORK);
            Files.createDirectories(WORK);
            Path bin = WORK.resolve("golden");
            Path log = WORK.resolve("gcc.log");
            Process p;
            try {
                p = new ProcessBuilder("gcc", "-O1", "-o", bin.toString(), SOURCE.toString(), "-lbpf")
                        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            } catch (IOException e) {
                unavailable = "gcc is not installed (" + PACKAGES + "): libbpf built into a harness is this test's oracle";
                return unavailable;
            }
            assertTrue(p.waitFor(2, TimeUnit.MINUTES), "gcc did not end");
            String out = Files.readString(log);
            if (p.exitValue() != 0) {
                // the headers (bpf/libbpf.h) or the library (-lbpf) missing: libbpf-dev is not installed
                if (out.contains("bpf/libbpf.h") || out.contains("bpf/bpf.h") || out.contains("-lbpf")) {
                    String first = out.lines().filter(l -> l.contains("bpf")).findFirst().orElse(out.strip());
                    unavailable = "libbpf's headers or library are missing (" + PACKAGES + "): " + first.strip();
                    return unavailable;
                }
                fail("gcc " + SOURCE + " failed:\n" + out);
            }
            binary = bin;
            return null;
        } catch (IOException | InterruptedException e) {
            throw new AssertionError("building " + SOURCE + ": " + e, e);
        }
    }

    /**
     * golden.c's output for {@code objects}, made on the first call of this test run for {@code set}:
     * the directory holding loads.tsv and OBJECT.PROGRAM.xlated for every program libbpf loaded.
     */
    static synchronized Path run(String set, List<Path> objects) {
        Path dir = RUNS.get(set);
        if (dir != null) {
            return dir;
        }
        String why = build();
        assumeTrue(why == null, why);
        dir = WORK.resolve(set);
        try {
            deleteTree(dir);
            Files.createDirectories(dir);
            List<String> cmd = new ArrayList<>(List.of(binary.toString(), dir.toString()));
            for (Path o : objects) {
                cmd.add(o.toString());
            }
            Process p = new ProcessBuilder(cmd).redirectOutput(dir.resolve("loads.tsv").toFile())
                    .redirectError(WORK.resolve(set + ".stderr").toFile()).start();
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                fail("libbpf's harness did not end in 5 minutes on " + set);
            }
            assertEquals(0, p.exitValue(), "libbpf's harness on " + set + ": " + Files.readString(WORK.resolve(set + ".stderr")));
        } catch (IOException | InterruptedException e) {
            throw new AssertionError("running libbpf's harness on " + set + ": " + e, e);
        }
        RUNS.put(set, dir);
        return dir;
    }

    /** The lines of {@code dir}/loads.tsv. */
    static List<Load> loads(Path dir) {
        List<Load> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(dir.resolve("loads.tsv"))) {
                String[] f = line.split("\t");
                assertEquals(4, f.length, "loads.tsv: " + line);
                out.add(new Load(f[0], f[1], f[2], f[3]));
            }
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return out;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
