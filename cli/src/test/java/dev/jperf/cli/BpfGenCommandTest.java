package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code jperf bpf gen skeleton ... --java}: bpftool's argument errors and exit codes, the source on stdout. */
class BpfGenCommandTest {
    static final Path OBJ = Path.of(System.getProperty("jperf.root", "../"), "samples/bpf/obj/exec_count.bpf.o");

    static String bpftool() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            for (String d : List.of(dir, "/usr/sbin")) {
                if (new java.io.File(d, "bpftool").canExecute()) {
                    return new java.io.File(d, "bpftool").getPath();
                }
            }
        }
        return null;
    }

    @Test
    void argumentErrorsAsBpftool() throws Exception {
        String bpftool = bpftool();
        assumeTrue(bpftool != null, "bpftool is not installed (Debian package bpftool): nothing to compare with");
        List<List<String>> cases = List.of(List.of(), List.of("/nonexistent.bpf.o"), List.of(OBJ.toString(), "name"),
                List.of(OBJ.toString(), "foo", "bar"), List.of(OBJ.toString(), "name", "a", "name", "b"));
        for (List<String> c : cases) {
            List<String> bt = new ArrayList<>(List.of(bpftool, "gen", "skeleton"));
            bt.addAll(c);
            Process p = new ProcessBuilder(bt).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            int rc = p.waitFor();
            List<String> jp = new ArrayList<>(List.of("bpf", "gen", "skeleton"));
            jp.addAll(c);
            jp.add("--java");
            Run r = Run.of(jp.toArray(new String[0]));
            assertEquals(rc, r.rc(), c.toString());
            assertEquals(out, r.out(), c.toString());
            assertEquals(err.lines().filter(l -> l.startsWith("Error: ")).toList(),
                    r.err().lines().filter(l -> l.startsWith("Error: ")).toList(), c.toString());
        }
    }

    /** bpftool gen skeleton ARGS: stdout, stderr and exit code. */
    static Run bpftool(String bpftool, List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(bpftool, "gen", "skeleton"));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.PIPE).start();
        p.getOutputStream().close();
        java.util.concurrent.CompletableFuture<byte[]> err = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return p.getErrorStream().readAllBytes();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int rc = p.waitFor();
        return new Run(rc, out, new String(err.get(), StandardCharsets.UTF_8));
    }

    @Test
    void cSkeletonAsBpftool() throws Exception {
        String bpftool = bpftool();
        assumeTrue(bpftool != null, "bpftool is not installed (Debian package bpftool): nothing to compare with");
        List<Path> objects = new ArrayList<>();
        Path testdata = Path.of(System.getProperty("jperf.testdata", "../testdata"));
        for (Path dir : List.of(OBJ.getParent(), testdata.resolve("bpf-objects/obj"))) {
            try (java.util.stream.Stream<Path> s = java.nio.file.Files.list(dir)) {
                s.filter(p -> p.toString().endsWith(".o")).sorted().forEach(objects::add);
            }
        }
        assertTrue(objects.size() > 40, "objects: " + objects.size());
        List<String> differ = new ArrayList<>();
        for (Path o : objects) {
            for (List<String> args : List.of(List.of(o.toString()), List.of(o.toString(), "name", "my_skel"))) {
                Run want = bpftool(bpftool, args);
                List<String> jp = new ArrayList<>(List.of("bpf", "gen", "skeleton"));
                jp.addAll(args);
                Run got = Run.of(jp.toArray(new String[0]));
                if (!want.equals(got)) {
                    differ.add(args + (want.rc() != got.rc() ? " rc " + want.rc() + " vs " + got.rc() : "")
                            + (!want.err().equals(got.err()) ? " stderr [" + want.err() + "] vs [" + got.err() + "]" : "")
                            + (!want.out().equals(got.out()) ? " stdout differs at " + firstDiff(want.out(), got.out()) : ""));
                }
            }
        }
        assertEquals(List.of(), differ);
    }

    static String firstDiff(String a, String b) {
        int i = 0;
        while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        int from = Math.max(0, a.lastIndexOf('\n', i - 1) + 1);
        return "offset " + i + ": [" + a.substring(from, Math.min(a.length(), i + 80)) + "] vs ["
                + b.substring(Math.min(from, b.length()), Math.min(b.length(), i + 80)) + "]";
    }

    @Test
    void writesTheJavaSourceToStdout() {
        Run r = Run.of("bpf", "gen", "skel", OBJ.toString(), "name", "my_tool", "--java", "package", "org.example.tools");
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.err());
        assertTrue(r.out().startsWith("// Generated by jperf bpf gen skeleton --java from exec_count.bpf.o"), r.out());
        assertTrue(r.out().contains("\npackage org.example.tools;\n"), r.out());
        assertTrue(r.out().contains("\npublic final class MyTool implements AutoCloseable {\n"), r.out());
        assertTrue(r.out().contains("private static final String NAME = \"my_tool\";"), r.out());
    }

    @Test
    void refusesWhatItCannotDo() {
        Run bad = Run.of("bpf", "gen", "skeleton", OBJ.toString(), "--java", "package", "not a package");
        assertEquals(255, bad.rc());
        assertEquals("Error: 'not a package' is not a Java package name\n", bad.err());
        Run c = Run.of("bpf", "gen", "skeleton", OBJ.toString(), "package", "p");
        assertEquals(255, c.rc());
        assertEquals("Error: unknown arg package\n", c.err());
        assertEquals("", c.out());
    }
}
