package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command's start runs no invokedynamic of ours: each call site's bootstrap (a lambda, a method
 * reference, a record's equals, a string concatenation not inlined by javac) runs interpreted once
 * and puts method-handle code before the one C1 thread (bench/README.md). Checked with the JVM's
 * own log of the call sites it links, in a JVM of its own.
 */
class StartupIndyTest {
    private static final Pattern SITE = Pattern.compile("resolve_invokedynamic Bootstrap in (\\S+)");

    @TempDir
    Path tmp;

    @Test
    void recordLinksNoCallSiteOfOurs() throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "perf_event_open needs root here");
        Path data = tmp.resolve("x.data");
        assertEquals(new TreeSet<String>(), sites("dev/jperf/", "record", "-q", "-a", "-o", data.toString(), "--", "true"));
    }

    @Test
    void reportsCommandLineLinksNoCallSiteOfOurs() throws Exception {
        Path data = dev.jperf.report.CorpusFixture.data("c-process");
        // the report modules still have some (comparators, stream lookups); the cli has none
        assertEquals(new TreeSet<String>(), sites("dev/jperf/cli/", "report", "-i", data.toString(), "--stdio"));
    }

    /** Our classes (under {@code prefix}) that link a call site while {@code jperf ARGS} runs. */
    private TreeSet<String> sites(String prefix, String... args) throws Exception {
        Path log = tmp.resolve("indy.log");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:methodhandles+indy=debug:file=" + log, "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(tmp.resolve("out.txt").toFile())
                .start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("jperf " + String.join(" ", args) + " did not finish");
        }
        assertEquals(0, p.exitValue(), Files.readString(tmp.resolve("out.txt")));
        TreeSet<String> ours = new TreeSet<>();
        int all = 0;
        Matcher m = SITE.matcher(Files.readString(log));
        while (m.find()) {
            all++;
            if (m.group(1).startsWith(prefix)) {
                ours.add(m.group(1));
            }
        }
        // the JDK's own classes (java.util.logging, ProcessBuilder, ...) link some: the log works
        org.junit.jupiter.api.Assertions.assertTrue(all > 0, "the JVM logged no call site at all");
        return ours;
    }
}
