package dev.jperf.report.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.perftools.profiles.ProfileProto.Profile;
import dev.jperf.format.PerfDataFile;
import dev.jperf.report.CorpusFixture;
import dev.jperf.report.Report;
import dev.jperf.report.symbol.SymbolResolver;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The exports on bad input: an unwritable output, a file without callchains, a damaged file. */
class ExportBadInputTest {
    @TempDir
    static Path tmp;
    static Path cache;

    @BeforeAll
    static void setUp() throws Exception {
        CorpusFixture.installBinaries();
        cache = CorpusFixture.buildIdDir();
    }

    private static String pprof(Path data, String output, ByteArrayOutputStream err) {
        try (PerfDataFile f = PerfDataFile.open(data)) {
            Exports.pprof(f, Report.Options.builder(data).symbols(CorpusFixture.kallsyms(), null).buildIdDir(cache).build(),
                    output, System.out, new PrintStream(err, true, StandardCharsets.UTF_8));
            return String.join("\n", f.warnings());
        }
    }

    private static Profile read(Path p) throws Exception {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(p))) {
            return Profile.parseFrom(in);
        }
    }

    @Test
    void unwritableOutputIsOneLineBeforeReading() throws Exception {
        Path data = CorpusFixture.data("b-callchains-bpf");
        Path missing = tmp.resolve("no-such-dir").resolve("p.pb.gz");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> pprof(data, missing.toString(), new ByteArrayOutputStream()));
        assertEquals("cannot write " + missing + ": no such directory", e.getMessage());
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        e = assertThrows(IllegalArgumentException.class,
                () -> pprof(data, file.resolve("p.pb.gz").toString(), new ByteArrayOutputStream()));
        assertTrue(e.getMessage().startsWith("cannot write " + file.resolve("p.pb.gz") + ": "), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    /** f-pipe's stream (pipe mode) on "stdin", its read failing after {@code good} bytes as a dying disk or pipe would. */
    private static PerfDataFile failingStream(int good) throws Exception {
        byte[] all = Files.readAllBytes(CorpusFixture.data("f-pipe"));
        InputStream in = new InputStream() {
            private int at;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int end = Math.min(good, all.length);
                if (at >= end) {
                    if (end == all.length) {
                        return -1;
                    }
                    throw new IOException("Input/output error");
                }
                int n = Math.min(len, end - at);
                System.arraycopy(all, at, b, off, n);
                at += n;
                return n;
            }
        };
        return PerfDataFile.open("stdin", in);
    }

    @Test
    void failedInputLeavesThePreviousFile() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("previous"));
        Path pprof = Files.writeString(dir.resolve("p.pb.gz"), "previous profile");
        Path html = Files.writeString(dir.resolve("f.html"), "previous graph");
        Report.Options o = Report.Options.builder(Path.of("stdin")).symbols(CorpusFixture.kallsyms(), null)
                .buildIdDir(cache).build();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PerfDataFile f = failingStream(300_000)) {
            RuntimeException e = assertThrows(RuntimeException.class, () -> Exports.pprof(f, o, pprof.toString(),
                    System.out, new PrintStream(err, true, StandardCharsets.UTF_8)));
            assertEquals("stdin: read error: Input/output error", e.getMessage());
        }
        try (PerfDataFile f = failingStream(300_000)) {
            RuntimeException e = assertThrows(RuntimeException.class, () -> Exports.flamegraph(f, o, html.toString(),
                    System.out, new PrintStream(err, true, StandardCharsets.UTF_8)));
            assertEquals("stdin: read error: Input/output error", e.getMessage());
        }
        assertEquals("previous profile", Files.readString(pprof));
        assertEquals("previous graph", Files.readString(html));
        try (var files = Files.list(dir)) {
            assertEquals(List.of(html, pprof), files.sorted().toList(), "a temporary file left behind");
        }
        // the same stream read whole replaces the file
        try (PerfDataFile f = failingStream(Integer.MAX_VALUE)) {
            Exports.pprof(f, o, pprof.toString(), System.out, new PrintStream(err, true, StandardCharsets.UTF_8));
        }
        assertTrue(read(pprof).getSampleCount() > 0);
    }

    @Test
    void fullDeviceIsOneLine() {
        Path full = Path.of("/dev/full");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isWritable(full), "no /dev/full");
        Path data = CorpusFixture.data("b-callchains-bpf");
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> {
            try (PerfDataFile f = PerfDataFile.open(data)) {
                Exports.flamegraph(f, Report.Options.builder(data).symbols(CorpusFixture.kallsyms(), null)
                        .buildIdDir(cache).build(), full.toString(), System.out, System.err);
            }
        });
        assertEquals("cannot write /dev/full: No space left on device", e.getCause().getMessage());
    }

    @Test
    void withoutCallchainsFlatFramesSaidOnce() throws Exception {
        Path out = tmp.resolve("flat.pb.gz");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        pprof(CorpusFixture.data("a-system-wide-bpf"), out.toString(), err);
        List<String> said = err.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(1, said.size(), said.toString());
        assertTrue(said.get(0).contains("no callchains"));
        Profile p = read(out);
        long samples = 0;
        for (var s : p.getSampleList()) {
            assertEquals(1, s.getLocationIdCount(), "a flat sample with a stack");
            samples += s.getValue(0);
        }
        assertEquals(22655, samples);
    }

    @Test
    void damagedFileExportedUpToTheDamage() throws Exception {
        Path data = CorpusFixture.CORPUS.resolve("h-damaged").resolve("truncated.data");
        Path out = tmp.resolve("truncated.pb.gz");
        String warnings = pprof(data, out.toString(), new ByteArrayOutputStream());
        assertTrue(warnings.contains("truncated"), warnings);
        long samples = 0;
        for (var s : read(out).getSampleList()) {
            samples += s.getValue(0);
        }
        // the folded stacks of the same file count the same samples: what was read before the damage
        ByteArrayOutputStream folded = new ByteArrayOutputStream();
        try (PerfDataFile f = PerfDataFile.open(data)) {
            Exports.folded(f, SymbolResolver.Options.defaults(CorpusFixture.kallsyms(), null, cache), folded, new PrintStream(
                    new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        }
        long counted = 0;
        for (String l : folded.toString(StandardCharsets.UTF_8).lines().toList()) {
            counted += Long.parseLong(l.substring(l.lastIndexOf(' ') + 1));
        }
        assertTrue(samples > 1000, "only " + samples + " samples before the damage");
        assertEquals(counted, samples);
        assertTrue(samples < 22655, "a truncated file gave every sample");
    }
}
