package dev.jperf.cli;

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

/**
 * Commands run as an ordinary user: when the suite runs as root, as user nobody (65534, no
 * capabilities) through setpriv, with jperf's classes and the files it is given copied where that
 * user can read them; otherwise as the suite's own user. Either way HOME (and the JVM's user.home,
 * JNA's cache) is {@link #home}, a directory of the test's, which is also the working directory.
 */
final class AsUser {
    static final int NOBODY = 65534;
    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");

    /** The user's home, working directory and place for its files. */
    final Path home;
    private final boolean switched;
    private final String classPath;

    private AsUser(Path home, boolean switched, String classPath) {
        this.home = home;
        this.switched = switched;
        this.classPath = classPath;
    }

    /** Whether this JVM runs as root. */
    static boolean root() throws IOException {
        for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (l.startsWith("Uid:")) {
                return l.split("\\s+")[2].equals("0");
            }
        }
        return false;
    }

    /** Prepares {@code dir} (a fresh directory of the test's); skips the test when root cannot switch user. */
    static AsUser in(Path dir) throws IOException {
        Path home = Files.createDirectories(dir.resolve("home"));
        if (!root()) {
            return new AsUser(home, false, System.getProperty("java.class.path"));
        }
        assumeTrue(Files.isExecutable(SETPRIV), "setpriv (util-linux) is not installed: cannot run as user " + NOBODY);
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
        Files.setAttribute(home, "unix:uid", NOBODY);
        Files.setAttribute(home, "unix:gid", NOBODY);
        return new AsUser(home, true, String.join(File.pathSeparator, cp));
    }

    /** Whether the commands run as another user than this JVM's (root's) . */
    boolean switched() {
        return switched;
    }

    /** {@code file} where the user can run it: a copy in {@link #home} (the original may be out of its reach). */
    Path executable(Path file) throws IOException {
        Path copy = home.resolve(file.getFileName().toString());
        Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rwxr-xr-x"));
        return copy;
    }

    /** {@code cmd} as the user, HOME its home. */
    List<String> command(String... cmd) {
        List<String> c = new ArrayList<>();
        if (switched) {
            c.addAll(List.of(SETPRIV.toString(), "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups",
                    "--inh-caps=-all"));
        }
        c.addAll(List.of("env", "HOME=" + home, "XDG_CACHE_HOME=" + home.resolve(".cache")));
        c.addAll(List.of(cmd));
        return c;
    }

    /** {@code jperf ARGS} as the user, in a JVM of its own. */
    List<String> jperf(String... args) {
        List<String> c = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-Duser.home=" + home, "-Djna.tmpdir=" + home, "-cp", classPath,
                Main.class.getName()));
        c.addAll(List.of(args));
        return command(c.toArray(new String[0]));
    }

    record Result(int rc, String out, String err) {}

    /** Runs {@code cmd} in {@link #home}; its stdout and stderr. */
    Result run(List<String> cmd) throws IOException, InterruptedException {
        Path out = Files.createTempFile(home.getParent(), "out", ".txt");
        Path err = Files.createTempFile(home.getParent(), "err", ".txt");
        try {
            Process p = new ProcessBuilder(cmd).directory(home.toFile()).redirectOutput(out.toFile())
                    .redirectError(err.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(cmd + " timed out");
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.delete(out);
            Files.delete(err);
        }
    }

    /** Starts {@code cmd} as the user in {@link #home}, its output discarded. */
    Process start(List<String> cmd) throws IOException {
        return new ProcessBuilder(cmd).directory(home.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
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
                    Files.copy(f, t, StandardCopyOption.COPY_ATTRIBUTES);
                    Files.setPosixFilePermissions(t, PosixFilePermissions.fromString("rw-r--r--"));
                }
            }
        }
    }
}
