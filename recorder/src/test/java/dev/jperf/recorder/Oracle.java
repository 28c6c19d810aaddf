package dev.jperf.recorder;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.format.Corpus;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the recording tests need from the machine: root, Linux perf as the oracle (found via PATH),
 * and the corpus binaries at /tmp/corpus/src where the corpus README says they run from.
 */
final class Oracle {
    static final Path CORPUS_BIN = Corpus.INSTALLED.resolve("src");
    static final Path SCENARIO = Corpus.INSTALLED.resolve("scripts/scenario.sh");

    private Oracle() {}

    static void assumeRoot() {
        boolean root = false;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    root = line.split("\\s+")[2].equals("0");
                }
            }
        } catch (IOException e) {
            root = false;
        }
        assumeTrue(root, "recording needs root (CAP_PERFMON + CAP_BPF + CAP_SYS_NICE) on a real kernel");
    }

    static Path perf() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            Path p = Path.of(dir, "perf");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        assumeTrue(false, "Linux perf is not in PATH (install linux-perf): it is the oracle for these tests");
        return null;
    }

    /** The corpus binaries and scripts at /tmp/corpus, as the corpus README says: format's {@link Corpus} copies them. */
    static void corpus() {
        Corpus.installBinaries();
    }

    /** Runs a command, returns stdout+stderr; fails the test on a timeout. */
    static Result run(List<String> cmd, int timeoutSeconds) throws IOException, InterruptedException {
        Path out = Files.createTempFile("jperf-oracle", ".out");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("timed out after " + timeoutSeconds + " s: " + cmd);
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    static Result perf(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(perf().toString()));
        cmd.addAll(List.of(args));
        return run(cmd, 300);
    }

    record Result(int rc, String out) {}
}
