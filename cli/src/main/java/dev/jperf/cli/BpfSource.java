package dev.jperf.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code jperf record -e prog.bpf.c}: the source compiled with clang as perf's llvm support did
 * ({@code clang -O2 -g -target bpf}, with the source's directory on the include path for its
 * vmlinux.h and headers). jperf runs clang only here, and only when it is installed.
 */
final class BpfSource {
    static final long TIMEOUT_S = 120;

    private BpfSource() {
    }

    /** The object built from {@code source} into {@code dir}; one line when clang is missing or fails. */
    static Path compile(Path source, Path dir) throws IOException, InterruptedException {
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
        Process p = new ProcessBuilder(List.of(clang, "-O2", "-g", "-target", "bpf", "-D__TARGET_ARCH_x86", "-I" + inc,
                "-c", source.toString(), "-o", out.toString())).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("clang did not compile " + source + " in " + TIMEOUT_S + " s");
        }
        if (p.exitValue() != 0) {
            String first = Files.readAllLines(log, StandardCharsets.UTF_8).stream().filter(l -> l.contains("error"))
                    .findFirst().orElse("exit " + p.exitValue());
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

    static void delete(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
    }
}
