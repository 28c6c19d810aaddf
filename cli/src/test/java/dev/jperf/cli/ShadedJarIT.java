package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The jar the shade step made (cli/target/jperf.jar), as the launcher runs it. */
class ShadedJarIT {
    private static final Path JAR = Path.of("target", "jperf.jar");

    @TempDir
    Path tmp;

    /** JNA's and protobuf's java.util.logging calls go to dev.jperf.cli.logging (cli/pom.xml's relocation). */
    @Test
    void noBundledClassCallsTheJdksLogging() throws Exception {
        List<String> calling = new ArrayList<>();
        boolean jnaRelocated = false;
        try (JarFile jar = new JarFile(JAR.toFile())) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements();) {
                JarEntry entry = e.nextElement();
                if (!entry.getName().endsWith(".class")) {
                    continue;
                }
                String constants;
                try (InputStream in = jar.getInputStream(entry)) {
                    constants = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
                }
                if (constants.contains("java/util/logging/")) {
                    calling.add(entry.getName());
                }
                if (entry.getName().equals("com/sun/jna/Native.class")) {
                    jnaRelocated = constants.contains("dev/jperf/cli/logging/Logger");
                }
            }
        }
        assertEquals(List.of(), calling);
        assertTrue(jnaRelocated, "JNA's Native takes its Logger from dev.jperf.cli.logging");
    }

    /**
     * A recording loads no class of the JDK's logging (JNA's Native initialised, its Logger ours) and
     * links no lambda or method handle, the JDK's own included (the workload by posix_spawn, build-ids
     * by positional reads): each would cost the start milliseconds (bench/README.md).
     */
    @Test
    void recordStartsNoJdkLoggingNorMethodHandles() throws Exception {
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "perf_event_open needs root here");
        Path log = tmp.resolve("classes.txt");
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load=info:file=" + log, "-cp", JAR.toString(), "dev.jperf.cli.Main",
                "record", "-q", "-a", "-o", tmp.resolve("x.data").toString(), "--", "true");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(tmp.resolve("out.txt").toFile())
                .start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "record did not finish");
        assertEquals(0, p.exitValue(), Files.readString(tmp.resolve("out.txt")));
        String classes = Files.readString(log);
        assertTrue(classes.contains(" com.sun.jna.Native "), "JNA was used");
        assertTrue(classes.contains(" dev.jperf.cli.logging.Logger "), "JNA took its Logger");
        assertFalse(classes.contains(" java.util.logging."), "a java.util.logging class was loaded");
        assertTrue(classes.contains(" dev.jperf.nativeshim.Spawn "), "the workload was spawned");
        assertTrue(classes.contains(" dev.jperf.recorder.BuildIdCache "), "the build-id pass ran");
        assertFalse(classes.contains(" java.lang.invoke.LambdaMetafactory "), "a lambda was linked");
        assertFalse(classes.contains(" java.lang.invoke.LambdaForm$MH/"), "a method handle was spun");
        assertEquals("", Files.readString(tmp.resolve("out.txt")));
    }
}
