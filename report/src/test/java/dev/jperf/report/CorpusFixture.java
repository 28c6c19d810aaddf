package dev.jperf.report;

import dev.jperf.format.Corpus;
import java.nio.file.Path;
import java.util.List;

/**
 * The corpus as the report and cli tests use it, built on format's {@link Corpus}: where
 * testdata/ is, the corpus kallsyms as a file, the corpus binaries where they ran from, and perf's
 * golden outputs (some xz-compressed) as lines. cli uses it through report's test-jar.
 */
public final class CorpusFixture {
    public static final Path TESTDATA = Corpus.TESTDATA;
    public static final Path CORPUS = Corpus.CORPUS;
    public static final Path EXTERNAL = Corpus.EXTERNAL;
    /** Where the corpus programs ran from (corpus/README.md): their symbols are looked up there. */
    public static final Path INSTALLED = Corpus.INSTALLED;

    private CorpusFixture() {
    }

    /** corpus/CASE/perf.data. */
    public static Path data(String kase) {
        return CORPUS.resolve(kase).resolve("perf.data");
    }

    /** {@link Corpus#kallsyms()}: the corpus kallsyms as a file; the test is skipped without a corpus. */
    public static Path kallsyms() {
        return Corpus.kallsyms();
    }

    /** {@link Corpus#buildIdDir()}: a private build-id cache holding the corpus vdso. */
    public static Path buildIdDir() {
        return Corpus.buildIdDir();
    }

    /** {@link Corpus#installBinaries()}: corpus/src and corpus/scripts under /tmp/corpus. */
    public static void installBinaries() {
        Corpus.installBinaries();
    }

    /** {@link Corpus#lines}: a golden output's lines, xz-decompressed when its name ends in .xz. */
    public static List<String> lines(Path golden) {
        return Corpus.lines(golden);
    }
}
