package dev.jperf.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * The corpus and external vectors as the tests use them: where testdata/ is, its files, the
 * corpus kallsyms as a file, the corpus binaries where they ran from, perf's golden outputs (some
 * xz-compressed) as lines and its --stats goldens parsed. In format's test-jar: report's
 * CorpusFixture builds on it.
 */
public final class Corpus {
    /** The checkout's testdata/: the parent pom sets jperf.testdata; the default is where it lies seen from a module. */
    public static final Path TESTDATA = Path.of(System.getProperty("jperf.testdata", "../testdata"));
    public static final Path CORPUS = TESTDATA.resolve("corpus");
    public static final Path EXTERNAL = TESTDATA.resolve("external");
    /** DWARF unwinding data: recordings with --call-graph dwarf, their binaries and goldens (dwarf/README.md). */
    public static final Path DWARF = TESTDATA.resolve("dwarf");
    /** Where the corpus programs ran from (corpus/README.md): their symbols are looked up there. */
    public static final Path INSTALLED = Path.of("/tmp/corpus");

    private static final Pattern LINE = Pattern.compile("^\\s*([A-Z_0-9]+) events:\\s+(\\d+)");
    private static Path kallsyms;
    private static Path buildIdDir;
    private static Path dwarfBuildIdDir;
    private static boolean installed;

    private Corpus() {
    }

    /** corpus/CASE/perf.data for every case that has one. */
    public static List<Path> corpusFiles() {
        try (Stream<Path> s = Files.list(CORPUS)) {
            return s.map(d -> d.resolve("perf.data")).filter(Files::isRegularFile).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every external vector file (not licences or READMEs). */
    public static List<Path> externalFiles() {
        try (Stream<Path> s = Stream.concat(Files.list(EXTERNAL.resolve("perf_data_converter")),
                Files.list(EXTERNAL.resolve("linux-perf-data")))) {
            return s.filter(p -> {
                String n = p.getFileName().toString();
                return !n.startsWith("LICENSE") && !n.equals("README.md");
            }).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The "Aggregated stats:" block of a perf --stats output: name -> count (empty if perf printed none). */
    static Map<String, Long> aggregated(Path stats) {
        Map<String, Long> m = new LinkedHashMap<>();
        try {
            List<String> lines = Files.readAllLines(stats);
            boolean in = false;
            for (String l : lines) {
                if (l.startsWith("Aggregated stats:")) {
                    in = true;
                    continue;
                }
                if (in && l.endsWith(" stats:")) {
                    break;
                }
                Matcher mm = LINE.matcher(l);
                if (in && mm.find()) {
                    m.put(mm.group(1), Long.parseLong(mm.group(2)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return m;
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
     * A build-id cache of this test run's own, laid out as perf's, holding the recording VM's vdso
     * (corpus/vdso, named by its build-id): {@code [vdso]/BID/vdso} and {@code .build-id/XX/REST}
     * linking to it. Golden tests hand it to jperf ({@code withBuildIdDir}) and to perf
     * ({@code --buildid-dir}) so [vdso] rows are named whatever the user's ~/.debug holds.
     */
    public static synchronized Path buildIdDir() {
        if (buildIdDir == null) {
            Path vdsoDir = CORPUS.resolve("vdso");
            Assumptions.assumeTrue(Files.isDirectory(vdsoDir), "no corpus vdso at " + vdsoDir);
            try {
                Path dir = Files.createTempDirectory("jperf-buildid");
                try (Stream<Path> s = Files.list(vdsoDir)) {
                    for (Path so : s.filter(f -> f.getFileName().toString().endsWith(".so")).toList()) {
                        String bid = so.getFileName().toString().replace(".so", "");
                        installVdso(dir, bid, Files.readAllBytes(so));
                    }
                }
                buildIdDir = dir;
                Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return buildIdDir;
    }

    /** dwarf/CASE/perf.data for every DWARF case; the calling test is skipped when there is none. */
    public static List<Path> dwarfFiles() {
        Assumptions.assumeTrue(Files.isDirectory(DWARF.resolve("buildid")), "no DWARF test data at " + DWARF);
        try (Stream<Path> s = Files.list(DWARF)) {
            return s.map(d -> d.resolve("perf.data")).filter(Files::isRegularFile).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * dwarf/buildid (the build-id cache perf filled while recording the DWARF cases: the programs,
     * libc, ld.so and vdso the samples hit, laid out as perf's ~/.debug) copied once per test run
     * to a directory of its own, links kept, for perf's {@code --buildid-dir} and jperf's: the
     * binaries are found by build-id wherever they ran from, whatever this machine's libc is.
     */
    public static synchronized Path dwarfBuildIdDir() {
        if (dwarfBuildIdDir == null) {
            Path from = DWARF.resolve("buildid");
            Assumptions.assumeTrue(Files.isDirectory(from), "no DWARF test data at " + DWARF);
            try {
                Path dir = Files.createTempDirectory("jperf-dwarf-buildid");
                try (Stream<Path> s = Files.walk(from)) {
                    for (Path f : s.toList()) {
                        Path to = dir.resolve(from.relativize(f).toString());
                        if (Files.isSymbolicLink(f)) {
                            Files.createSymbolicLink(to, Files.readSymbolicLink(f));
                        } else if (Files.isDirectory(f)) {
                            Files.createDirectories(to);
                        } else {
                            Files.copy(f, to);
                        }
                    }
                }
                dwarfBuildIdDir = dir;
                Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(dir)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return dwarfBuildIdDir;
    }

    /** Puts a vdso image into the build-id cache {@code dir} as perf's build_id_cache__add does. */
    public static void installVdso(Path dir, String bid, byte[] image) throws IOException {
        Path entry = dir.resolve("[vdso]").resolve(bid);
        Files.createDirectories(entry);
        Files.write(entry.resolve("vdso"), image);
        Path link = dir.resolve(".build-id").resolve(bid.substring(0, 2)).resolve(bid.substring(2));
        Files.createDirectories(link.getParent());
        Files.createSymbolicLink(link, Path.of("../../[vdso]").resolve(bid));
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a temporary directory left behind is harmless
        }
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
    public static byte[] unxz(Path xz) {
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
