package dev.jperf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** Linux perf as the report tests' oracle (jperf itself never runs it), built on format's. */
public final class PerfOracle {
    private PerfOracle() {
    }

    /** Skips the calling test, saying why, when perf is not on the PATH. */
    public static void assumeInstalled() {
        dev.jperf.format.PerfOracle.assumeInstalled();
    }

    /** What {@code perf ARGS} prints on stdout (its stderr dropped); the test fails unless perf exits 0 within 120 s. */
    public static String run(String... args) throws Exception {
        // the recording VM's vdso, as the goldens were made, and never the user's ~/.debug
        List<String> cmd = new ArrayList<>(List.of("perf", "--buildid-dir", CorpusFixture.buildIdDir().toString()));
        cmd.addAll(List.of(args));
        // output to a file: the timeout starts at once, not after perf closed its stdout (perf 6.1
        // loops forever on some reports; the test then fails in 120 s, not at JUnit's 10 minutes)
        java.io.File out = java.io.File.createTempFile("jperf-perf", ".out");
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .redirectOutput(out);
            pb.environment().put("PAGER", "cat");
            Process p = pb.start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", cmd) + " timed out");
            }
            assertEquals(0, p.exitValue(), String.join(" ", cmd));
            return java.nio.file.Files.readString(out.toPath(), StandardCharsets.UTF_8);
        } finally {
            out.delete();
        }
    }

    /** A report's lines without perf's (or jperf's) random "# (Tip: ...)" line. */
    public static List<String> withoutTip(String report) {
        return report.lines().filter(l -> !l.startsWith("# (Tip")).toList();
    }

    /** {@code perf COMMAND -h}: its option list (perf prints it on stderr and exits 129). */
    public static String usage(String command) throws Exception {
        Process p = new ProcessBuilder("perf", command, "-h").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "perf " + command + " -h timed out");
        assertEquals(129, p.exitValue(), "perf " + command + " -h");
        return out;
    }

    /**
     * {@code perf record -q -o DIR/NAME ARGS} (stdout dropped): the recording, made here. As a user
     * the kernel may refuse it (perf_event_paranoid keeps kernel samples and system-wide recording
     * from others): the test is then skipped with perf's account of the refusal; root's must succeed.
     */
    public static Path record(Path dir, String name, String... args) throws Exception {
        Path data = dir.resolve(name);
        List<String> cmd = new ArrayList<>(List.of("perf", "--buildid-dir", dir.resolve("buildid").toString(),
                "record", "-q", "-o", data.toString()));
        cmd.addAll(List.of(args));
        java.io.File err = java.io.File.createTempFile("jperf-perf", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(err).start();
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "perf record timed out");
            List<String> lines = java.nio.file.Files.readAllLines(err.toPath());
            if (p.exitValue() != 0 && !"root".equals(System.getProperty("user.name"))) {
                // perf_event_open refused (EACCES/EPERM): perf says so and gives the paranoid level
                List<String> why = lines.stream().filter(l -> l.contains("operations is limited")
                        || l.startsWith("perf_event_paranoid setting is")).toList();
                Assumptions.assumeTrue(why.isEmpty(), () -> "perf record " + String.join(" ", args)
                        + ": the kernel refuses this user: " + String.join(" ", why));
            }
            assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + String.join("\n", lines));
        } finally {
            err.delete();
        }
        return data;
    }
}
