package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.NativeException;
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

    /**
     * The kernel's answer for the user running the test: ENOENT for root (nothing has the id), EPERM
     * for a user (BPF_*_GET_FD_BY_ID needs CAP_SYS_ADMIN whatever the id), as bpftool says too.
     */
    @Test
    void deadIdIsOneLine() {
        Bpf bpf = new Bpf();
        int dead = Integer.parseInt(DEAD);
        int mapErrno = -bpf.mapGetFdByIdOrErrno(dead);
        int progErrno = -bpf.progGetFdByIdOrErrno(dead);
        assertTrue(mapErrno > 0 && progErrno > 0, "an object has id " + DEAD);
        if ("root".equals(System.getProperty("user.name"))) {
            assertEquals(Errno.ENOENT, mapErrno, Errno.describe(mapErrno));
            assertEquals(Errno.ENOENT, progErrno, Errno.describe(progErrno));
        }
        Run r = Run.of("bpf", "map", "dump", "id", DEAD);
        assertEquals(1, r.rc());
        assertEquals("", r.out());
        assertEquals("jperf bpf map: get map by id (" + DEAD + "): " + Errno.text(mapErrno) + "\n", r.err());

        r = Run.of("bpf", "prog", "show", DEAD);
        assertEquals(1, r.rc());
        assertEquals("jperf bpf prog: get by id (" + DEAD + "): " + Errno.text(progErrno) + "\n", r.err());

        r = Run.of("bpf", "prog", "dump", "xlated", DEAD, "--json");
        assertEquals(1, r.rc());
        assertEquals("{\"error\":\"get by id (" + DEAD + "): " + Errno.text(progErrno) + "\"}\n", r.out());
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

    /** A user the kernel refuses bpf(2): the test's own user, or root's run as user nobody. */
    @Test
    void listWithoutPermissionIsOneLine(@TempDir Path dir) throws IOException, InterruptedException {
        String[][] commands = {{"prog", "list"}, {"map", "list", "-j"}};
        if ("root".equals(System.getProperty("user.name"))) {
            refusedToNobody(dir, commands);
        } else {
            int errno = 0;
            try {
                new Bpf().progGetNextId(0);
            } catch (NativeException e) {
                errno = e.errno();
            }
            assumeTrue(errno == Errno.EPERM, "bpf(2) answers this user: " + (errno == 0 ? "no error" : Errno.describe(errno)));
            for (String[] c : commands) {
                List<String> args = new ArrayList<>(List.of("bpf"));
                args.addAll(List.of(c));
                Run r = Run.of(args.toArray(new String[0]));
                assertRefused(c, r.rc(), r.out(), r.err());
            }
        }
    }

    private static void refusedToNobody(Path dir, String[][] commands) throws IOException, InterruptedException {
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
        for (String[] c : commands) {
            List<String> cmd = new ArrayList<>(List.of(setpriv.toString(), "--reuid=65534", "--regid=65534",
                    "--clear-groups", "env", "HOME=" + home, Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Djna.tmpdir=" + home, "-cp", String.join(File.pathSeparator, cp), "dev.jperf.cli.Main", "bpf"));
            cmd.addAll(List.of(c));
            Process p = new ProcessBuilder(cmd).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertRefused(c, p.exitValue(), out, err);
        }
    }

    private static void assertRefused(String[] c, int rc, String out, String err) {
        assertEquals(1, rc, err);
        String what = c[0].equals("prog") ? "program" : "map";
        assertEquals("jperf bpf " + c[0] + ": can't get next " + what + ": Operation not permitted\n", err);
        assertEquals(c.length == 3 ? "[{\"error\":\"can't get next map: Operation not permitted\"}]\n" : "", out);
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
