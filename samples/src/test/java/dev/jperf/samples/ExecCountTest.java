package dev.jperf.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.bpf.JavaSkeleton;
import dev.jperf.loader.BpfObjectException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * samples/skeleton/ExecCount.java, built as its user builds it: the skeleton generated from
 * exec_count.bpf.o, both compiled for Java 17 against the loader, then run: the execs of this
 * process's children counted by command, .rodata set before load, .bss read live.
 */
class ExecCountTest {
    static final Path SAMPLES = Path.of(System.getProperty("jperf.root", "../"), "samples");
    static final Path DIR = Path.of("target/exec-count");

    /** The java block under "## BPF tools in plain Java" in the README. */
    static final Pattern README_BLOCK = Pattern.compile("## BPF tools in plain Java.*?```java\\n(.*?)```", Pattern.DOTALL);

    /** ExecCountBpf.java generated and compiled with ExecCount.java (and the README's ExecTop) into target/exec-count/classes. */
    static Path build() throws Exception {
        Path obj = SAMPLES.resolve("bpf/obj/exec_count.bpf.o");
        String name = JavaSkeleton.objectName(obj.toString());
        Path src = DIR.resolve("src");
        Files.createDirectories(src);
        Path skel = src.resolve(JavaSkeleton.typeName(name) + ".java");
        Files.writeString(skel, JavaSkeleton.generate(obj.toString(), Files.readAllBytes(obj), name, null));
        Matcher m = README_BLOCK.matcher(Files.readString(SAMPLES.resolveSibling("README.md")));
        assertTrue(m.find(), "README: no java block under ## BPF tools in plain Java");
        assertTrue(m.group(1).lines().count() <= 22, "the README's tool is short: " + m.group(1).lines().count() + " lines");
        Path readmeTool = src.resolve("ExecTop.java");
        Files.writeString(readmeTool, m.group(1));
        Path classes = DIR.resolve("classes");
        Files.createDirectories(classes);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
        try (StandardJavaFileManager fm = javac.getStandardFileManager(diags, Locale.ROOT, null)) {
            boolean ok = javac.getTask(null, fm, diags, List.of("--release", "17", "-Xlint:all", "-Werror", "-classpath",
                    System.getProperty("java.class.path"), "-d", classes.toString()), null,
                    fm.getJavaFileObjectsFromPaths(List.of(skel, SAMPLES.resolve("skeleton/ExecCount.java"), readmeTool))).call();
            assertTrue(ok, diags.getDiagnostics().toString());
        }
        return classes;
    }

    @Test
    void compilesOnJava17() throws Exception {
        assertTrue(Files.isRegularFile(build().resolve("ExecCountBpf.class")));
    }

    @Test
    void readmesToolRuns() throws Exception {
        assumeTrue(Files.readString(Path.of("/proc/self/status")).matches("(?s).*\\nUid:\\s+0\\s.*"), "needs root for bpf(2)");
        Path classes = build();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.PrintStream saved = System.out;
        try (URLClassLoader cl = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
            Method main = cl.loadClass("ExecTop").getMethod("main", String[].class);
            System.setOut(new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
            try {
                main.invoke(null, (Object) new String[] {"0", String.valueOf(ProcessHandle.current().pid())});
            } catch (InvocationTargetException e) {
                assumeTrue(!(e.getCause() instanceof BpfObjectException), "the kernel refuses the program here: "
                        + e.getCause().getMessage());
                throw e;
            } finally {
                System.setOut(saved);
            }
        }
        // no child ran while it counted: nothing but the total
        assertEquals("     0 execs\n", out.toString(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void countsTheExecsOfThisProcesssChildren() throws Exception {
        assumeTrue(Files.readString(Path.of("/proc/self/status")).matches("(?s).*\\nUid:\\s+0\\s.*"), "needs root for bpf(2)");
        Path classes = build();
        try (URLClassLoader cl = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
            Class<?> c = cl.loadClass("ExecCount");
            Method start = c.getMethod("start", int.class);
            Method counts = c.getMethod("counts");
            Method total = c.getMethod("total");
            AutoCloseable counter;
            try {
                counter = (AutoCloseable) start.invoke(null, (int) ProcessHandle.current().pid());
            } catch (InvocationTargetException e) {
                assumeTrue(!(e.getCause() instanceof BpfObjectException), "the kernel refuses the program here: "
                        + e.getCause().getMessage());
                throw e;
            }
            try (counter) {
                @SuppressWarnings("unchecked")
                Map<String, Long> before = (Map<String, Long>) counts.invoke(counter);
                assertNull(before.get("true"), before.toString());
                int n = 7;
                for (int i = 0; i < n; i++) {
                    assertEquals(0, new ProcessBuilder("/bin/true").start().waitFor());
                }
                // a child of a child is not counted: the filter set in .rodata is the parent's tgid (the
                // shell's last command a builtin, so that no shell execs /bin/true in its own place)
                assertEquals(0, new ProcessBuilder("/bin/sh", "-c", "/bin/true; exit 0").start().waitFor());
                @SuppressWarnings("unchecked")
                Map<String, Long> after = (Map<String, Long>) counts.invoke(counter);
                assertEquals(Long.valueOf(n), after.get("true"), after.toString());
                assertEquals(Long.valueOf(1), after.get("sh"), after.toString());
                long sum = 0;
                for (long v : after.values()) {
                    sum += v;
                }
                assertEquals(sum, (long) (Long) total.invoke(counter), after.toString());
            }
        }
    }
}
