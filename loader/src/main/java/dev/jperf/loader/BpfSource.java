package dev.jperf.loader;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.DirectoryStream;
import java.nio.file.LinkOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code jperf record -e prog.bpf.c}: the source compiled with clang as perf's llvm support did
 * ({@code clang -O2 -g -target bpf}, with the source's directory on the include path for its
 * headers, and the running kernel's {@link VmlinuxHeader} after it when the source includes a
 * vmlinux.h its directory lacks). jperf runs clang only here, and only when it is installed. On
 * the record path: no lambdas or streams.
 */
public final class BpfSource {
    static final long TIMEOUT_S = 120;

    private BpfSource() {
    }

    /** The object built from {@code source} into {@code dir}; one line when clang is missing or fails. */
    public static Path compile(Path source, Path dir) throws IOException, InterruptedException {
        if (!Files.isRegularFile(source)) {
            throw new IOException(source + ": no such BPF source");
        }
        String clang = onPath("clang");
        if (clang == null) {
            throw new IOException("compiling " + source + " needs clang, which is not installed (apt-get install clang);"
                    + " or give the built object: --bpf-object prog.bpf.o");
        }
        String name = source.getFileName().toString();
        Path out = dir.resolve(name.substring(0, name.length() - 2) + ".o");
        Path log = dir.resolve(name + ".log");
        Path inc = source.toAbsolutePath().getParent();
        List<String> cmd = new ArrayList<>(List.of(clang, "-O2", "-g", "-target", "bpf", "-D__TARGET_ARCH_x86", "-I" + inc));
        if (VmlinuxHeader.needed(source)) {
            cmd.add("-I" + VmlinuxHeader.directory(dir));
        }
        cmd.add("-c");
        cmd.add(source.toString());
        cmd.add("-o");
        cmd.add(out.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("clang did not compile " + source + " in " + TIMEOUT_S + " s");
        }
        if (p.exitValue() != 0) {
            String first = "exit " + p.exitValue();
            for (String l : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                if (l.contains("error")) {
                    first = l;
                    break;
                }
            }
            throw new IOException("clang failed on " + source + ": " + first);
        }
        return out;
    }

    private static String onPath(String cmd) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path c = Path.of(d, cmd);
            if (!d.isEmpty() && Files.isExecutable(c)) {
                return c.toString();
            }
        }
        return null;
    }

    /** Deletes {@code dir} and what it holds (the build's files: no links followed). */
    public static void delete(Path dir) {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path f : s) {
                if (Files.isDirectory(f, LinkOption.NOFOLLOW_LINKS)) {
                    delete(f);
                } else {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }
}
