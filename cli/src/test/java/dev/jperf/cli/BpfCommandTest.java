package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jperf bpf}'s command line and its bad input: a dead id, an id that is not a number, an
 * unknown command, no permission. Each is one line on stderr and a non-zero exit; with
 * {@code --json}, stdout carries bpftool's {@code {"error": ...}} object as bpftool does. (What the
 * commands print for real objects is compared with bpftool in the bpf module's
 * BpftoolAgreementTest.)
 */
class BpfCommandTest {
    /** An id no map or program has: ids are allocated upwards from 1. */
    private static final String DEAD = "2147483647";

    @Test
    void deadIdIsOneLine() {
        Run r = Run.of("bpf", "map", "dump", "id", DEAD);
        assertEquals(1, r.rc());
        assertEquals("", r.out());
        assertEquals("jperf bpf map: get map by id (" + DEAD + "): No such file or directory\n", r.err());

        r = Run.of("bpf", "prog", "show", DEAD);
        assertEquals(1, r.rc());
        assertEquals("jperf bpf prog: get by id (" + DEAD + "): No such file or directory\n", r.err());

        r = Run.of("bpf", "prog", "dump", "xlated", DEAD, "--json");
        assertEquals(1, r.rc());
        assertEquals("{\"error\":\"get by id (" + DEAD + "): No such file or directory\"}\n", r.out());
        assertEquals(1, r.err().lines().count(), r.err());
    }

    @Test
    void badIdIsOneLine() {
        Run r = Run.of("bpf", "map", "show", "12x");
        assertEquals(1, r.rc());
        assertEquals("jperf bpf map: can't parse 12x as ID\n", r.err());
        r = Run.of("bpf", "prog", "show", "-p", "99999999999");
        assertEquals(1, r.rc());
        assertEquals("{\n    \"error\": \"can't parse 99999999999 as ID\"\n}\n", r.out());
    }

    @Test
    void unknownCommandIsAUsageError() {
        for (String[] args : new String[][] {{"bpf"}, {"bpf", "link"}, {"bpf", "map", "pin"}, {"bpf", "prog", "dump", "jited", "1"},
            {"bpf", "map", "show", "1", "2"}}) {
            Run r = Run.of(args);
            assertEquals(Main.USAGE_ERROR, r.rc(), String.join(" ", args));
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("jperf bpf"), r.err());
        }
    }

    @Test
    void loadAndRunTakeOneObject() {
        for (String command : new String[] {"load", "run"}) {
            Run r = Run.of("bpf", command);
            assertEquals(Main.USAGE_ERROR, r.rc());
            assertEquals("jperf bpf " + command + ": no BPF object given (jperf bpf " + command + " -h lists the options)\n",
                    r.err());
            r = Run.of("bpf", command, "a.bpf.o", "b.bpf.o");
            assertEquals(Main.USAGE_ERROR, r.rc());
            assertEquals("jperf bpf " + command + ": one BPF object only (jperf bpf " + command + " -h lists the options)\n",
                    r.err());
        }
    }

    @Test
    void listWithoutPermissionIsOneLine(@TempDir Path dir) throws IOException, InterruptedException {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root to run jperf as another user");
        Path setpriv = Path.of("/usr/bin/setpriv");
        assumeTrue(Files.isExecutable(setpriv), "setpriv (util-linux) is not installed");
        // jperf's classes where user nobody can read them
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<String> cp = new ArrayList<>();
        int n = 0;
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path src = Path.of(e);
            if (!Files.exists(src)) {
                continue;
            }
            Path dst = dir.resolve("cp" + n++ + (Files.isDirectory(src) ? "" : ".jar"));
            copy(src, dst);
            cp.add(dst.toString());
        }
        Path home = Files.createDirectory(dir.resolve("home")); // nobody's, for JNA's native library
        Files.setAttribute(home, "unix:uid", 65534);
        for (String[] c : new String[][] {{"prog", "list"}, {"map", "list", "-j"}}) {
            List<String> cmd = new ArrayList<>(List.of(setpriv.toString(), "--reuid=65534", "--regid=65534",
                    "--clear-groups", "env", "HOME=" + home, Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Djna.tmpdir=" + home, "-cp", String.join(File.pathSeparator, cp), "dev.jperf.cli.Main", "bpf"));
            cmd.addAll(List.of(c));
            Process p = new ProcessBuilder(cmd).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(1, p.exitValue(), err);
            String what = c[0].equals("prog") ? "program" : "map";
            assertEquals("jperf bpf " + c[0] + ": can't get next " + what + ": Operation not permitted\n", err);
            assertEquals(c.length == 3 ? "[{\"error\":\"can't get next map: Operation not permitted\"}]\n" : "", out);
        }
    }

    private static void copy(Path src, Path dst) throws IOException {
        if (!Files.isDirectory(src)) {
            Files.copy(src, dst, StandardCopyOption.COPY_ATTRIBUTES);
            Files.setPosixFilePermissions(dst, PosixFilePermissions.fromString("rw-r--r--"));
            return;
        }
        try (Stream<Path> files = Files.walk(src)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path t = dst.resolve(src.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(t);
                    Files.setPosixFilePermissions(t, PosixFilePermissions.fromString("rwxr-xr-x"));
                } else {
                    Files.copy(f, t);
                    Files.setPosixFilePermissions(t, PosixFilePermissions.fromString("rw-r--r--"));
                }
            }
        }
    }
}
