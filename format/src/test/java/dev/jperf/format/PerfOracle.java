package dev.jperf.format;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Linux perf as a test oracle (never used by jperf itself): runs {@code perf report} on a file with
 * the corpus kallsyms and binaries so that it resolves symbols as it did for the golden outputs. In
 * format's test-jar: report's PerfOracle builds on it.
 */
public final class PerfOracle {
    public record Result(int rc, String out, String err) {
    }

    private PerfOracle() {
    }

    /** Whether perf is on the PATH. */
    public static boolean installed() {
        return Stream.of(System.getenv().getOrDefault("PATH", "/usr/bin").split(":"))
                .anyMatch(d -> Files.isExecutable(Path.of(d, "perf")));
    }

    /** Skips the calling test with the reason when Linux perf is not installed. */
    public static void assumeInstalled() {
        assumeTrue(installed(), "Linux perf is not installed (apt-get install -y linux-perf); it is the oracle of this test");
    }

    public static Result perf(String... args) throws IOException, InterruptedException {
        // the recording VM's vdso, as the goldens were made, and never the user's ~/.debug
        return perfWithBuildIdDir(Corpus.buildIdDir(), args);
    }

    /** {@code perf --buildid-dir DIR ARGS}: perf reading the binaries of that build-id cache, not the user's. */
    public static Result perfWithBuildIdDir(Path buildIdDir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add("perf");
        cmd.add("--buildid-dir");
        cmd.add(buildIdDir.toString());
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("jperf-perf", ".out");
        Path err = Files.createTempFile("jperf-perf", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
            pb.environment().put("PAGER", "cat");
            Process p = pb.start();
            try (InputStream ignored = p.getInputStream()) {
                if (!p.waitFor(300, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new IOException("perf " + String.join(" ", args) + " timed out");
                }
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.ISO_8859_1),
                    Files.readString(err, StandardCharsets.ISO_8859_1));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /**
     * {@code perf report --stdio --sort sym} with the corpus kallsyms and binaries, without perf's
     * random closing tip.
     */
    public static Result reportSortSym(Path file) throws IOException, InterruptedException {
        Corpus.installBinaries();
        Result r = perf("report", "-i", file.toString(), "--stdio", "--sort", "sym",
                "--kallsyms", Corpus.kallsyms().toString());
        return new Result(r.rc, dropTip(r.out), r.err);
    }

    public static Result headerOnly(Path file) throws IOException, InterruptedException {
        return perf("report", "-i", file.toString(), "--header-only", "-I");
    }

    static String dropTip(String report) {
        return report.lines().filter(l -> !l.startsWith("# (Tip:") && !l.startsWith("# (Cannot load tips"))
                .collect(Collectors.joining("\n"));
    }
}
