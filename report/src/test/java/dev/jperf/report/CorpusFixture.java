package dev.jperf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * The shared corpus as the report and cli tests use it: where ../shared is, the corpus kallsyms as
 * a file, the corpus binaries where they ran from, and perf's golden outputs (some xz-compressed)
 * as lines. cli uses it through report's test-jar.
 */
public final class CorpusFixture {
    /** ../shared: the parent pom sets jperf.shared; the default is where it lies seen from a module. */
    public static final Path SHARED = Path.of(System.getProperty("jperf.shared", "../../shared"));
    public static final Path CORPUS = SHARED.resolve("corpus");
    public static final Path EXTERNAL = SHARED.resolve("external");
    /** Where the corpus programs ran from (corpus/README.md): their symbols are looked up there. */
    public static final Path INSTALLED = Path.of("/tmp/corpus");

    private static Path kallsyms;
    private static boolean installed;

    private CorpusFixture() {
    }

    /** corpus/CASE/perf.data. */
    public static Path data(String kase) {
        return CORPUS.resolve(kase).resolve("perf.data");
    }

    /**
     * corpus/kallsyms.txt.xz decompressed to a file once per test run (perf and jperf read kallsyms
     * from a file); the calling test is skipped when there is no corpus.
     */
    public static synchronized Path kallsyms() {
        if (kallsyms == null) {
            Path xz = CORPUS.resolve("kallsyms.txt.xz");
            Assumptions.assumeTrue(Files.isRegularFile(xz), "no corpus at " + CORPUS);
            try {
                Path f = Files.createTempFile("jperf-kallsyms", ".txt");
                f.toFile().deleteOnExit();
                Files.write(f, unxz(xz));
                kallsyms = f;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return kallsyms;
    }

    /**
     * Copies corpus/src and corpus/scripts to /tmp/corpus/src and /tmp/corpus/scripts, once per test
     * run: only files missing there or of another size (the others may be running in another test);
     * the calling test is skipped when there is no corpus.
     */
    public static synchronized void installBinaries() {
        if (installed) {
            return;
        }
        Assumptions.assumeTrue(Files.isDirectory(CORPUS.resolve("src")), "no corpus at " + CORPUS);
        try {
            for (String sub : List.of("src", "scripts")) {
                Path to = INSTALLED.resolve(sub);
                Files.createDirectories(to);
                try (Stream<Path> s = Files.list(CORPUS.resolve(sub))) {
                    for (Path f : s.toList()) {
                        Path t = to.resolve(f.getFileName().toString());
                        if (!Files.exists(t) || Files.size(t) != Files.size(f)) {
                            Files.copy(f, t, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        installed = true;
    }

    /** A golden output's lines: the file as it is, or decompressed with xz(1) when its name ends in .xz. */
    public static List<String> lines(Path golden) {
        if (golden.getFileName().toString().endsWith(".xz")) {
            return new String(unxz(golden), StandardCharsets.UTF_8).lines().toList();
        }
        try {
            return Files.readAllLines(golden);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An .xz file's content, decompressed by xz(1). */
    private static byte[] unxz(Path xz) {
        try {
            Process p = new ProcessBuilder("xz", "-dc", xz.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            byte[] content = p.getInputStream().readAllBytes();
            assertEquals(0, p.waitFor(), "xz -dc " + xz + " (apt-get install xz-utils)");
            return content;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
