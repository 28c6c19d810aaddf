package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The launcher's JIT lists (record-compile-commands.txt for record, report-compile-commands.txt for
 * report, annotate and flamegraph) name methods by pattern under CompileCommand=quiet, where a
 * pattern that matches nothing is silently dropped: a rename would lose a tuning with no sign.
 * Every jperf pattern must match at least one method that exists.
 */
class JitListsTest {
    @ParameterizedTest
    @ValueSource(strings = {"/dev/jperf/cli/record-compile-commands.txt", "/dev/jperf/cli/report-compile-commands.txt"})
    void everyJperfPatternNamesAMethod(String list) throws Exception {
        List<String> patterns = new ArrayList<>();
        try (InputStream in = JitListsTest.class.getResourceAsStream(list)) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String[] f = line.trim().split("\\s+");
                if (line.isBlank() || f[0].startsWith("#")) {
                    continue;
                }
                assertTrue(f.length == 2 || f.length == 3, "KIND PATTERN [VALUE]: " + line);
                if (f[1].startsWith("dev/jperf/")) {
                    patterns.add(f[1]);
                }
            }
        }
        assertTrue(patterns.size() > 5, list + ": jperf patterns: " + patterns);
        for (String p : patterns) {
            int dot = p.lastIndexOf('.');
            String classGlob = p.substring(0, dot);
            Pattern method = glob(p.substring(dot + 1));
            List<Method> found = new ArrayList<>();
            for (Class<?> c : classes(classGlob)) {
                for (Method m : c.getDeclaredMethods()) {
                    if (method.matcher(m.getName()).matches()) {
                        found.add(m);
                    }
                }
            }
            assertFalse(found.isEmpty(), p + " names no method: renamed? (the launcher would drop it silently)");
        }
    }

    private static Pattern glob(String g) {
        return Pattern.compile(Pattern.quote(g).replace("*", "\\E.*\\Q"));
    }

    /** The classes whose binary name (with /) matches {@code glob}, found on the class path. */
    private static List<Class<?>> classes(String glob) throws IOException, ClassNotFoundException {
        int slash = glob.lastIndexOf('/');
        String pkg = glob.substring(0, slash);
        Pattern name = glob(glob.substring(slash + 1));
        List<String> simple = new ArrayList<>();
        for (URL u : Collections.list(JitListsTest.class.getClassLoader().getResources(pkg))) {
            if (u.getProtocol().equals("jar")) {
                try (JarFile jar = ((JarURLConnection) u.openConnection()).getJarFile()) {
                    jar.stream().map(e -> e.getName()).filter(n -> n.startsWith(pkg + "/") && n.endsWith(".class"))
                            .map(n -> n.substring(pkg.length() + 1, n.length() - 6)).filter(n -> !n.contains("/"))
                            .forEach(simple::add);
                }
            } else {
                try (Stream<Path> s = Files.list(Path.of(java.net.URI.create(u.toString())))) {
                    s.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".class"))
                            .map(n -> n.substring(0, n.length() - 6)).forEach(simple::add);
                }
            }
        }
        List<Class<?>> out = new ArrayList<>();
        for (String s : simple) {
            if (name.matcher(s).matches()) {
                out.add(Class.forName(pkg.replace('/', '.') + "." + s, false, JitListsTest.class.getClassLoader()));
            }
        }
        return out;
    }
}
