package dev.jperf.report.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * google/pprof as the pprof export's oracle, built offline from Debian's packages (golang-go,
 * golang-github-google-pprof-dev) into a test's private directory; tests that need it skip,
 * saying so, where those packages are not installed (CI must install them).
 */
final class PprofTool {
    static final Path GOPATH = Path.of("/usr/share/gocode");
    private final Path binary;

    private PprofTool(Path binary) {
        this.binary = binary;
    }

    /** Builds pprof in {@code dir} (its own Go build cache there too); skips without the packages. */
    static PprofTool build(Path dir) throws Exception {
        assumeTrue(Files.isDirectory(GOPATH.resolve("src/github.com/google/pprof")),
                "google/pprof's source is not installed: CI must install golang-go golang-github-google-pprof-dev");
        Path bin = dir.resolve("pprof");
        ProcessBuilder pb;
        try {
            pb = new ProcessBuilder("go", "build", "-o", bin.toString(), "github.com/google/pprof");
            pb.environment().put("GO111MODULE", "off");
            pb.environment().put("GOPATH", GOPATH.toString());
            pb.environment().put("GOCACHE", dir.resolve("gocache").toString());
            pb.environment().put("HOME", dir.toString());
            pb.redirectErrorStream(true);
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(600, TimeUnit.SECONDS), "go build of pprof timed out");
            assertEquals(0, p.exitValue(), "go build github.com/google/pprof: " + out);
        } catch (java.io.IOException e) {
            assumeTrue(false, "no go toolchain (" + e.getMessage() + "): CI must install golang-go golang-github-google-pprof-dev");
        }
        return new PprofTool(bin);
    }

    /** {@code pprof ARGS} stdout; the test fails unless it exits 0. */
    String run(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(binary.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        // no symbolization server, no browser, no state under the real home
        pb.environment().put("HOME", binary.getParent().toString());
        pb.environment().put("PPROF_TMPDIR", binary.getParent().toString());
        pb.environment().put("PPROF_BINARY_PATH", binary.getParent().resolve("nobinaries").toString());
        Path err = Files.createTempFile(binary.getParent(), "pprof", ".err");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "pprof timed out");
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + Files.readString(err));
        return out;
    }
}
