package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ./jperf launcher, run from a copy of it in a tree of its own (a jar newer than every source, so
 * it builds nothing) with a fake JDK whose {@code java} writes down the arguments it was given.
 */
class LauncherTest {
    private static final String RECORD_LIST = "cli/src/main/resources/dev/jperf/cli/record-compile-commands.txt";
    private static final String REPORT_LIST = "cli/src/main/resources/dev/jperf/cli/report-compile-commands.txt";

    @TempDir
    Path tree;
    private Path jdk;
    private Path args;

    @BeforeEach
    void tree() throws IOException {
        Path root = Path.of(System.getProperty("jperf.root", ".."));
        Files.copy(root.resolve("jperf"), tree.resolve("jperf"));
        Path list = tree.resolve(RECORD_LIST);
        Files.createDirectories(list.getParent());
        Files.copy(root.resolve(RECORD_LIST), list);
        Files.copy(root.resolve(REPORT_LIST), tree.resolve(REPORT_LIST));
        Files.setLastModifiedTime(tree.resolve(REPORT_LIST), FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        Files.writeString(tree.resolve("pom.xml"), "<project/>\n");
        Files.writeString(tree.resolve("cli/pom.xml"), "<project/>\n");
        Path jar = tree.resolve("cli/target/jperf.jar");
        Files.createDirectories(jar.getParent());
        Files.write(jar, new byte[0]);
        FileTime old = FileTime.fromMillis(System.currentTimeMillis() - 60_000);
        Files.setLastModifiedTime(list, old);
        Files.setLastModifiedTime(tree.resolve("pom.xml"), old);
        Files.setLastModifiedTime(tree.resolve("cli/pom.xml"), old);
        jdk = tree.resolve("jdk");
        Files.createDirectories(jdk.resolve("bin"));
        Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"17.0.99\"\nJAVA_RUNTIME_VERSION=\"17.0.99+9\"\n");
        args = tree.resolve("args.txt");
        Path java = jdk.resolve("bin/java");
        Files.writeString(java, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '" + args + "'\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private List<String> run(Map<String, String> env, String... command) throws Exception {
        return runAs(tree.resolve("jperf").toString(), tree, env, command);
    }

    /** The launcher run as {@code sh LAUNCHER COMMAND...} from {@code cwd}: what the fake java was given. */
    private List<String> runAs(String launcher, Path cwd, Map<String, String> env, String... command) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("sh", launcher));
        cmd.addAll(List.of(command));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).directory(cwd.toFile());
        pb.environment().remove("JAVA_HOME");
        pb.environment().remove("JPERF_JAVA_OPTS");
        pb.environment().remove("JPERF_RECORD_COMPILE_COMMANDS");
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertEquals("", out, "the launcher says nothing of its own");
        return Files.readAllLines(args);
    }

    /** Each line of record's JIT list as the -XX:CompileCommand the JVM is given. */
    private List<String> compileCommands(Path list) throws IOException {
        List<String> flags = new ArrayList<>();
        for (String line : Files.readAllLines(list)) {
            String[] f = line.trim().split("\\s+");
            if (!line.isBlank() && !f[0].startsWith("#")) {
                flags.add("-XX:CompileCommand=" + String.join(",", f));
            }
        }
        return flags;
    }

    private static List<String> only(List<String> argv, String prefix) {
        List<String> out = new ArrayList<>();
        for (String a : argv) {
            if (a.startsWith(prefix) && !a.equals("-XX:CompileCommand=quiet")) {
                out.add(a);
            }
        }
        return out;
    }

    @Test
    void recordGetsItsJitListKeptAsAFragmentUntilTheListChanges() throws Exception {
        Map<String, String> env = Map.of("JAVA_HOME", jdk.toString());
        List<String> first = run(env, "record", "-q", "-a", "--", "true");
        Path list = tree.resolve(RECORD_LIST);
        List<String> expected = compileCommands(list);
        assertTrue(expected.size() > 20, expected.toString());
        assertEquals(expected, only(first, "-XX:CompileCommand="));
        Path fragment = tree.resolve("cli/target/cds/record-jit.flags");
        assertTrue(Files.isRegularFile(fragment), "the flags are kept for the next run");
        List<String> second = run(env, "record", "-q", "-a", "--", "true");
        assertEquals(only(first, "-XX:CompileCommand="), only(second, "-XX:CompileCommand="));
        // the class path and main class, the command's own arguments after them, untouched
        int cp = second.indexOf("-cp");
        assertEquals(List.of(tree.resolve("cli/target/jperf.jar").toString(), "dev.jperf.cli.Main", "record", "-q", "-a",
                "--", "true"), second.subList(cp + 1, second.size()));

        // an edited list (then the jar it is built into) is read again
        Files.writeString(list, "CompileThresholdScaling dev/jperf/recorder/Idle.after 0.5\n",
                java.nio.file.StandardOpenOption.APPEND);
        Files.setLastModifiedTime(list, FileTime.fromMillis(System.currentTimeMillis() + 2_000));
        Files.setLastModifiedTime(tree.resolve("cli/target/jperf.jar"), FileTime.fromMillis(System.currentTimeMillis() + 4_000));
        List<String> third = run(env, "record", "-q", "-a", "--", "true");
        assertEquals(compileCommands(list), only(third, "-XX:CompileCommand="));
        assertTrue(third.contains("-XX:CompileCommand=CompileThresholdScaling,dev/jperf/recorder/Idle.after,0.5"));
    }

    @Test
    void anotherListNamedByTheEnvironmentIsUsedAndNotKept() throws Exception {
        Path other = tree.resolve("other.txt");
        Files.writeString(other, "# one line\ninline java/nio/DirectByteBuffer.getLong\n");
        List<String> argv = run(Map.of("JAVA_HOME", jdk.toString(), "JPERF_RECORD_COMPILE_COMMANDS", other.toString()),
                "record", "-q", "--", "true");
        assertEquals(List.of("-XX:CompileCommand=inline,java/nio/DirectByteBuffer.getLong"),
                only(argv, "-XX:CompileCommand="));
        List<String> again = run(Map.of("JAVA_HOME", jdk.toString()), "record", "-q", "--", "true");
        assertEquals(compileCommands(tree.resolve(RECORD_LIST)), only(again, "-XX:CompileCommand="));
    }

    /** Without JAVA_HOME: the java on PATH, its JDK found through its real path and remembered while it stays that file. */
    @Test
    void javaOnPathNamesItsJdkThroughSymbolicLinks() throws Exception {
        Path bin = tree.resolve("path-bin");
        Files.createDirectories(bin);
        Files.createSymbolicLink(bin.resolve("java"), jdk.resolve("bin/java"));
        Map<String, String> env = Map.of("PATH", bin + ":/usr/bin:/bin");
        run(env, "record", "-q", "--", "true");
        List<String> argv = run(env, "record", "-q", "--", "true");
        // the JDK's build names the class-data sharing files: its release file was found
        assertTrue(String.join(" ", argv).contains("record-17.0.99+9.classlist"), argv.toString());
        assertEquals(List.of(bin.resolve("java").toString(), jdk.toString()),
                Files.readAllLines(tree.resolve("cli/target/cds/jdk")));
        // PATH's java now another JDK's: found again, not the remembered one
        Path jdk2 = tree.resolve("jdk2");
        Files.createDirectories(jdk2.resolve("bin"));
        Files.copy(jdk.resolve("bin/java"), jdk2.resolve("bin/java"));
        Files.writeString(jdk2.resolve("release"), "JAVA_VERSION=\"25.0.1\"\nJAVA_RUNTIME_VERSION=\"25.0.1+8\"\n");
        Files.delete(bin.resolve("java"));
        Files.createSymbolicLink(bin.resolve("java"), jdk2.resolve("bin/java"));
        List<String> other = run(env, "record", "-q", "--", "true");
        assertTrue(String.join(" ", other).contains("record-25.0.1+8.classlist"), other.toString());
        assertTrue(other.contains("--enable-native-access=ALL-UNNAMED"), "JDK 24+ flags from the new JDK's release file");
    }

    /** The readers run C1 only (bench/README.md: C2's compiles cost more than they won back, script included). */
    @Test
    void readersRunC1OnlyWithTheirYoungGeneration() throws Exception {
        Map<String, String> env = Map.of("JAVA_HOME", jdk.toString());
        for (String cmd : List.of("report", "annotate", "flamegraph", "script")) {
            List<String> argv = run(env, cmd, "-i", "x.data");
            assertTrue(argv.contains("-XX:TieredStopAtLevel=1"), cmd + ": " + argv);
            assertTrue(argv.contains(cmd.equals("script") ? "-Xmn32m" : "-Xmn16m"), cmd + ": " + argv);
        }
        assertTrue(!run(env, "inject", "-i", "x.data").contains("-XX:TieredStopAtLevel=1"), "inject keeps C2");
    }

    /** Run from its own directory ({@code sh jperf}) or through a symbolic link, the launcher finds its tree. */
    @Test
    void findsItsTreeFromARelativePathOrASymbolicLink(@TempDir Path elsewhere) throws Exception {
        Map<String, String> env = Map.of("JAVA_HOME", jdk.toString());
        String jar = tree.resolve("cli/target/jperf.jar").toString();
        for (List<String> argv : List.of(runAs("jperf", tree, env, "report"), runAs("./jperf", tree, env, "report"))) {
            assertEquals(jar, argv.get(argv.indexOf("-cp") + 1), argv.toString());
        }
        Path link = elsewhere.resolve("jp");
        Files.createSymbolicLink(link, tree.resolve("jperf"));
        List<String> viaLink = runAs(link.toString(), elsewhere, env, "report");
        assertEquals(tree.toRealPath().resolve("cli/target/jperf.jar").toString(), viaLink.get(viaLink.indexOf("-cp") + 1));
    }

    /** A JDK whose version the launcher cannot read (no release file): -jar, so its manifest's attributes apply. */
    @Test
    void unknownJdkVersionRunsTheJarWithJar() throws Exception {
        Files.delete(jdk.resolve("release"));
        List<String> argv = run(Map.of("JAVA_HOME", jdk.toString()), "report");
        assertEquals(List.of("-jar", tree.resolve("cli/target/jperf.jar").toString(), "report"),
                argv.subList(argv.size() - 3, argv.size()));
    }
    /**
     * A source newer than the jar: the launcher builds with Maven (here a fake {@code mvn} on PATH that
     * writes colour escapes as Maven's console does) and says one line; a failed build shows Maven's
     * output without escapes, then one line of its own, and exits 1.
     */
    @Test
    void buildSaysOneLineAndShowsMavensErrorsWithoutEscapes() throws Exception {
        Path source = tree.resolve("cli/src/main/java/dev/jperf/cli/Main.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "class Main {}\n");
        Path bin = tree.resolve("mvn-bin");
        Files.createDirectories(bin);
        Path mvn = bin.resolve("mvn");
        Path jar = tree.resolve("cli/target/jperf.jar");
        Files.writeString(mvn, "#!/bin/sh\nprintf '\\033[0m\\033[0m[INFO] quiet\\033[0m\\n'\n"
                + "if [ -f fail ]; then printf '\\033[1;31m[ERROR] COMPILATION ERROR\\033[m\\n' >&2; exit 1; fi\n"
                + "touch '" + jar + "'\n");
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
        Map<String, String> env = Map.of("JAVA_HOME", jdk.toString(), "PATH", bin + ":/usr/bin:/bin");

        Files.writeString(tree.resolve("fail"), "");
        ProcessBuilder pb = new ProcessBuilder("sh", tree.resolve("jperf").toString(), "report")
                .redirectErrorStream(true).directory(tree.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(1, p.exitValue(), out);
        assertEquals("jperf: building (mvn package)...\n[INFO] quiet\n[ERROR] COMPILATION ERROR\njperf: build failed\n", out);

        Files.delete(tree.resolve("fail"));
        pb = new ProcessBuilder("sh", tree.resolve("jperf").toString(), "report").redirectErrorStream(true).directory(tree.toFile());
        pb.environment().putAll(env);
        p = pb.start();
        out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertEquals("jperf: building (mvn package)...\n", out);
        assertTrue(Files.readAllLines(args).contains("report"), "the built jar runs");
    }
}
