package dev.jperf.bpf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ReadOnlyBufferException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * {@code bpf gen skeleton --java}: the source of every sample and external object compiles on Java
 * 17 against the loader, and a skeleton runs: .rodata set between open and load reaches the
 * program, .data and .bss read after load are the live map.
 */
class JavaSkeletonTest {
    static final Path ROOT = Path.of(System.getProperty("jperf.root", "../"));
    static final Path TESTDATA = Path.of(System.getProperty("jperf.testdata", "../testdata"));

    static List<Path> objects() throws IOException {
        List<Path> all = new ArrayList<>();
        for (Path dir : List.of(ROOT.resolve("samples/bpf/obj"), TESTDATA.resolve("bpf-objects/obj"))) {
            try (Stream<Path> s = Files.list(dir)) {
                s.filter(p -> p.toString().endsWith(".o")).sorted().forEach(all::add);
            }
        }
        return all;
    }

    /** Compiles {@code sources} into {@code classes} for Java 17 against this test's class path; the errors, if any. */
    static String compile(List<Path> sources, Path classes) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        Files.createDirectories(classes);
        try (StandardJavaFileManager fm = javac.getStandardFileManager(diags, Locale.ROOT, null)) {
            List<String> opts = List.of("--release", "17", "-Xlint:all", "-Werror", "-classpath",
                    System.getProperty("java.class.path"), "-d", classes.toString());
            boolean ok = javac.getTask(null, fm, diags, opts, null, fm.getJavaFileObjectsFromPaths(sources)).call();
            StringBuilder b = new StringBuilder();
            diags.getDiagnostics().forEach(d -> b.append(d).append('\n'));
            return ok ? null : b.toString();
        }
    }

    static Path generate(Path object, Path dir, String pkg) throws Exception {
        String name = JavaSkeleton.objectName(object.toString());
        String src = JavaSkeleton.generate(object.toString(), Files.readAllBytes(object), name, pkg);
        Path out = dir.resolve(pkg == null ? "" : pkg.replace('.', '/')).resolve(JavaSkeleton.typeName(name) + ".java");
        Files.createDirectories(out.getParent());
        Files.writeString(out, src);
        return out;
    }

    @Test
    void everyObjectsSkeletonCompiles() throws Exception {
        Path dir = Path.of("target/skeleton-test/all");
        List<Path> sources = new ArrayList<>();
        for (Path o : objects()) {
            // a package per object: two objects may give the same class name
            String pkg = "gen." + JavaSkeleton.objectName(o.toString()).toLowerCase(Locale.ROOT)
                    + (o.startsWith(TESTDATA) ? "_ext" : "");
            sources.add(generate(o, dir.resolve("src"), pkg));
        }
        assertTrue(sources.size() > 30, "objects: " + sources.size());
        String errors = compile(sources, dir.resolve("classes"));
        assertEquals(null, errors);
    }

    @Test
    void namesAsBpftool() {
        assertEquals("exec_count_bpf", JavaSkeleton.objectName("samples/bpf/obj/exec_count.bpf.o"));
        assertEquals("ExecCountBpf", JavaSkeleton.typeName("exec_count_bpf"));
        assertEquals("a_b_c", JavaSkeleton.objectName("/x/a-b.c"));
    }

    @Test
    void globalDataSkeletonRuns() throws Exception {
        assumeTrue(Files.readString(Path.of("/proc/self/status")).matches("(?s).*\\nUid:\\s+0\\s.*"), "needs root for bpf(2)");
        Path dir = Path.of("target/skeleton-test/global");
        Path skel = generate(ROOT.resolve("samples/bpf/obj/global_data.bpf.o"), dir.resolve("src"), "gd");
        // a class that uses the skeleton as a user would, called through Callable
        Path driver = dir.resolve("src/gd/Driver.java");
        Files.writeString(driver, String.join("\n",
                "package gd;",
                "public final class Driver implements java.util.concurrent.Callable<String> {",
                "    public String call() throws Exception {",
                "        try (GlobalDataBpf s = GlobalDataBpf.open()) {",
                "            int before = s.rodata().targetTgid();",
                "            s.rodata().setTargetTgid((int) ProcessHandle.current().pid());",
                "            s.rodata().setMinId(0);",
                "            long initial = s.data().callsSeen();",
                "            s.data().setCallsSeen(5000);",
                "            s.load();",
                "            String rodataAfterLoad;",
                "            try {",
                "                s.rodata().setTargetTgid(1);",
                "                rodataAfterLoad = \"written\";",
                "            } catch (java.nio.ReadOnlyBufferException e) {",
                "                rodataAfterLoad = \"read-only\";",
                "            }",
                "            s.attach();",
                "            long counted0 = s.bss().callsCounted();",
                "            for (int i = 0; i < 200; i++) {",
                "                java.nio.file.Files.exists(java.nio.file.Path.of(\"/proc/self/nonexistent\" + i));",
                "            }",
                "            long counted = s.bss().callsCounted() - counted0;",
                "            long[] byClass = s.bss().byClass();",
                "            long sum = 0;",
                "            for (long c : byClass) sum += c;",
                "            return before + \" \" + s.rodata().targetTgid() + \" \" + initial + \" \" + (s.data().callsSeen() >= 5000 + counted)",
                "                    + \" \" + (counted >= 200) + \" \" + (sum >= 200) + \" \" + rodataAfterLoad",
                "                    + \" \" + s.progs().onSysEnter().name() + \" \" + s.skeleton().links().size();",
                "        }",
                "    }",
                "}", ""));
        String errors = compile(List.of(skel, driver), dir.resolve("classes"));
        assertEquals(null, errors);
        try (URLClassLoader cl = new URLClassLoader(new URL[] {dir.resolve("classes").toUri().toURL()},
                getClass().getClassLoader())) {
            @SuppressWarnings("unchecked")
            Callable<String> d = (Callable<String>) cl.loadClass("gd.Driver").getDeclaredConstructor().newInstance();
            String got;
            try {
                got = d.call();
            } catch (dev.jperf.loader.BpfObjectException e) {
                assumeTrue(false, "the kernel refuses the program here: " + e.getMessage());
                return;
            }
            assertEquals("0 " + ProcessHandle.current().pid() + " 1000 true true true read-only on_sys_enter 1", got);
        }
    }

    @Test
    void setterRefusesWhatDoesNotFit() {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4);
        assertThrows(IllegalArgumentException.class, () -> dev.jperf.loader.BpfSkeleton.putString(b, 0, 4, "abcde"));
        assertThrows(ReadOnlyBufferException.class, () -> b.asReadOnlyBuffer().putInt(0, 1));
    }
}
