package dev.jperf.report.annotate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/** The corpus kallsyms.txt.xz, decompressed once per test run (perf reads kallsyms from a file). */
final class CorpusKallsyms {
    static final Path CORPUS = Path.of(System.getProperty("jperf.shared", "../../shared"), "corpus");
    private static Path file;

    private CorpusKallsyms() {
    }

    static synchronized Path path() {
        if (file == null) {
            Path xz = CORPUS.resolve("kallsyms.txt.xz");
            Assumptions.assumeTrue(Files.isRegularFile(xz), "no corpus at " + CORPUS);
            try {
                Path f = Files.createTempFile("jperf-annotate-kallsyms", ".txt");
                f.toFile().deleteOnExit();
                Process p = new ProcessBuilder("xz", "-dc", xz.toString()).redirectOutput(f.toFile()).start();
                assertEquals(0, p.waitFor(), "xz -dc kallsyms.txt.xz (apt-get install xz-utils)");
                file = f;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return file;
    }
}
