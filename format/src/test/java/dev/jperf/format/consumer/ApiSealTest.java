package dev.jperf.format.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.airlift.compress.zstd.ZstdDecompressor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.module.ModuleDescriptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.DocumentationTool;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reading API is sealed: format's module descriptor exports the consumer API to everyone and
 * its own packages only to jperf's modules (by the names their jars declare), a program on the
 * module path reaches the one and not the other, and the exported packages' javadoc is sound.
 */
class ApiSealTest {
    /** What programs that embed jperf may use: the consumer API and the packages of its types. */
    private static final Set<String> API = Set.of("dev.jperf.format.consumer", "dev.jperf.format.record",
            "dev.jperf.format.header", "dev.jperf.format.feature", "dev.jperf.format.bpf",
            "dev.jperf.format.btf", "dev.jperf.format.io");
    private static final Pattern MODULE_NAME = Pattern.compile("<jperf\\.module>([^<]+)</jperf\\.module>");

    private static final Path ROOT = Path.of(System.getProperty("jperf.root", ".."));

    @Test
    void theDescriptorExportsTheApiAndQualifiesTheRest() throws Exception {
        ModuleDescriptor d;
        try (InputStream in = Files.newInputStream(classes().resolve("module-info.class"))) {
            d = ModuleDescriptor.read(in);
        }
        assertEquals("dev.jperf.format", d.name());
        Set<String> open = new TreeSet<>();
        Set<String> qualified = new TreeSet<>();
        Set<String> targets = new TreeSet<>();
        for (ModuleDescriptor.Exports e : d.exports()) {
            (e.isQualified() ? qualified : open).add(e.source());
            targets.addAll(e.targets());
        }
        assertEquals(new TreeSet<>(API), open);
        // every package is placed: public to everyone or to named jperf modules
        Set<String> placed = new TreeSet<>(open);
        placed.addAll(qualified);
        assertEquals(packagesOf(classes()), placed);
        Set<String> jperfModules = jperfModuleNames();
        assertTrue(jperfModules.containsAll(targets), "targets " + targets + " are jperf modules " + jperfModules);
        assertTrue(d.requires().stream().noneMatch(r -> r.name().startsWith("dev.jperf")), "format depends on no jperf module");
    }

    @Test
    void aModuleReachesTheApiAndNotTheInternals(@TempDir Path dir) throws Exception {
        Matcher m = ReadmeExampleTest.BLOCK.matcher(Files.readString(ROOT.resolve("README.md")));
        assertTrue(m.find(), "README.md: no java block under ## Embedding");
        Matcher c = ReadmeExampleTest.CLASS.matcher(m.group(1));
        assertTrue(c.find());
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("example"));
        Files.writeString(src.resolve("module-info.java"), "module example { requires dev.jperf.format; }\n");
        Files.writeString(src.resolve("example").resolve(c.group(1) + ".java"), "package example;\n" + m.group(1));
        assertEquals("", javac(dir, src), "the README example compiles as a module");

        Files.writeString(src.resolve("example").resolve("Inside.java"), "package example;\n"
                + "public class Inside { dev.jperf.format.PerfDataFile f; }\n");
        String refused = javac(dir, src);
        assertTrue(refused.contains("package dev.jperf.format is declared in module dev.jperf.format, which does not export it"),
                refused);
    }

    /**
     * javadoc's doclint on the exported packages: no error or warning, except a member's missing
     * comment or tag (the "missing" group); every exported type has its comment.
     */
    @Test
    void theExportedJavadocIsSound(@TempDir Path dir) throws Exception {
        DocumentationTool javadoc = ToolProvider.getSystemDocumentationTool();
        assertNotNull(javadoc, "tests run on a JDK");
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StringWriter out = new StringWriter();
        List<String> options = List.of("-Xdoclint:all", "-Xmaxwarns", "100000", "-quiet", "-d", dir.toString(),
                "--module-path", aircompressor().toString(),
                "--module-source-path", "dev.jperf.format=" + ROOT.resolve("format/src/main/java"),
                "--module", "dev.jperf.format");
        Boolean ok = javadoc.getTask(new PrintWriter(out), null, diagnostics, null, options, null).call();
        List<String> bad = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            String msg = d.getMessage(null);
            if (d.getKind() == Diagnostic.Kind.WARNING && missingOnAMember(d, msg)) {
                continue;
            }
            if (d.getKind() == Diagnostic.Kind.NOTE) {
                continue;
            }
            bad.add((d.getSource() == null ? "" : d.getSource().getName() + ":" + d.getLineNumber() + ": ") + msg);
        }
        assertEquals(List.of(), bad);
        assertTrue(ok, out.toString());
    }

    /** A member's missing comment or tag; a type's missing comment is not forgiven. */
    private static boolean missingOnAMember(Diagnostic<? extends JavaFileObject> d, String msg) throws IOException {
        if (msg.startsWith("no @param") || msg.startsWith("no @return") || msg.startsWith("no @throws")) {
            return true;
        }
        if (!msg.equals("no comment") || d.getSource() == null) {
            return false;
        }
        String line = d.getSource().getCharContent(true).toString().lines().skip(d.getLineNumber() - 1).findFirst().orElse("");
        return !line.matches("\\s*(public|protected)\\s.*\\b(class|interface|enum|record|@interface)\\s.*");
    }

    private static String javac(Path dir, Path src) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        // an empty class path: javac in this JVM would otherwise see format's classes there, unnamed
        Path empty = Files.createDirectories(dir.resolve("empty"));
        List<String> args = new ArrayList<>(List.of("-d", dir.resolve("out").toString(), "--release", "17",
                "--class-path", empty.toString(), "--module-path", classes() + ":" + aircompressor()));
        try (Stream<Path> files = Files.walk(src)) {
            files.filter(p -> p.toString().endsWith(".java")).forEach(p -> args.add(p.toString()));
        }
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int rc = javac.run(null, diagnostics, diagnostics, args.toArray(String[]::new));
        String text = diagnostics.toString(StandardCharsets.UTF_8);
        if (rc == 0) {
            return text;
        }
        assertNotEquals("", text);
        return text;
    }

    /** format's classes: a named module, module-info.class at the root. */
    private static Path classes() {
        return codeSource(RecordingFile.class);
    }

    private static Path aircompressor() {
        return codeSource(ZstdDecompressor.class);
    }

    private static Path codeSource(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Set<String> packagesOf(Path classes) throws IOException {
        try (Stream<Path> files = Files.walk(classes)) {
            return files.filter(p -> p.toString().endsWith(".class") && !p.getFileName().toString().equals("module-info.class"))
                    .map(p -> classes.relativize(p.getParent()).toString().replace('/', '.'))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /** The module names jperf's jars declare (jperf.module in each module's pom). */
    private static Set<String> jperfModuleNames() throws IOException {
        Set<String> names = new TreeSet<>();
        try (Stream<Path> dirs = Files.list(ROOT)) {
            for (Path pom : dirs.map(d -> d.resolve("pom.xml")).filter(Files::isRegularFile).toList()) {
                Matcher m = MODULE_NAME.matcher(Files.readString(pom));
                if (m.find()) {
                    names.add(m.group(1));
                }
            }
        }
        assertTrue(names.size() >= 8, "jperf's modules: " + names);
        return names;
    }
}
