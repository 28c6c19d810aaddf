package dev.jperf.format.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.Corpus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's embedding example, as printed there, compiled and run on a corpus recording with
 * BPF programs: the README cannot drift from the API.
 */
class ReadmeExampleTest {
    /** The first java code block after the "Embedding" heading. */
    static final Pattern BLOCK = Pattern.compile("## Embedding.*?```java\\n(.*?)```", Pattern.DOTALL);
    static final Pattern CLASS = Pattern.compile("public class (\\w+)");

    @Test
    void readmeExampleRuns(@TempDir Path dir) throws Exception {
        Path readme = Path.of(System.getProperty("jperf.root", "..")).resolve("README.md");
        Matcher m = BLOCK.matcher(Files.readString(readme));
        assertTrue(m.find(), readme + ": no java block under ## Embedding");
        String source = m.group(1);
        assertTrue(source.lines().count() <= 20, "the example is short: " + source.lines().count() + " lines");
        Matcher c = CLASS.matcher(source);
        assertTrue(c.find(), "the example is a public class");
        Path file = dir.resolve(c.group(1) + ".java");
        Files.writeString(file, source);

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "tests run on a JDK");
        String api = Path.of(RecordingFile.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int rc = javac.run(null, diagnostics, diagnostics, "-d", dir.toString(), "-cp", api, "--release", "17",
                file.toString());
        assertEquals(0, rc, "javac: " + diagnostics.toString(StandardCharsets.UTF_8));

        Path recording = Corpus.CORPUS.resolve("e-preloaded-bpf/perf.data");
        Assumptions.assumeTrue(Files.isRegularFile(recording), "no corpus at " + Corpus.CORPUS);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            Method main = loader.loadClass(c.group(1)).getMethod("main", String[].class);
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            main.invoke(null, (Object) new String[] {recording.toString()});
        } finally {
            System.setOut(saved);
        }
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        // a line per sample (corpus README: 21473), in time order
        assertEquals(21473, lines.size());
        long last = 0;
        for (String l : lines) {
            long t = Long.parseLong(l.substring(0, l.indexOf(' ')));
            assertTrue(t >= last, "out of time order: " + l);
            last = t;
        }
        // the BPF samples named down to the source line (bpf-lines.txt: 1571 samples at lines.bpf.c:40:5)
        assertEquals(1571, lines.stream().filter(l -> l.endsWith(" bpf_prog_d8e0d1431ff1b30f_lines_hot ./lines.bpf.c:40:5")).count(),
                String.join("\n", lines.subList(0, 5)));
    }
}
