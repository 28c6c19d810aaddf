package dev.jperf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.PerfDataFile;
import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.report.export.Exports;
import dev.jperf.report.script.Script;
import dev.jperf.report.symbol.Dso;
import dev.jperf.report.symbol.SymbolResolver;
import dev.jperf.report.symbol.SymbolTable;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Kallsyms whose every address is 0, as /proc/kallsyms reads for a user the kernel hides addresses
 * from (kptr_restrict, perf_event_paranoid 2 without CAP_SYSLOG): perf as that user ignores it, and
 * prints what it prints with a kallsyms that names nothing (an empty file): kernel samples in
 * {@code [kernel.kallsyms]} at their raw address. jperf must print the same whoever runs the suite,
 * so the test makes such a file (the corpus kallsyms, addresses zeroed) instead of reading /proc.
 */
class HiddenKallsymsTest {
    @TempDir
    static Path tmp;
    /** The corpus kallsyms with every address 0. */
    static Path zeroed;
    /** A kallsyms that names nothing: perf's oracle for an ignored one. */
    static Path empty;

    @BeforeAll
    static void files() throws IOException {
        zeroed = tmp.resolve("kallsyms.zeroed");
        Pattern addr = Pattern.compile("^[0-9a-f]{16} ", Pattern.MULTILINE);
        Files.writeString(zeroed, addr.matcher(Files.readString(CorpusFixture.kallsyms(), StandardCharsets.ISO_8859_1))
                .replaceAll("0000000000000000 "), StandardCharsets.ISO_8859_1);
        empty = Files.createFile(tmp.resolve("kallsyms.empty"));
    }

    /**
     * Pipe files of other kernels (no build-id: perf takes the running kernel's /proc/kallsyms,
     * which a user reads zeroed) and a corpus recording with call chains through the kernel and BPF.
     */
    @ParameterizedTest(name = "{0} --sort {1} -g {2}")
    @CsvSource(delimiter = '|', value = {
        "perf_data_converter/perf.data.piped.target-3.4|comm,dso,sym|none",
        "perf_data_converter/perf.data.piped.header_features-4.16|sym|none",
        "linux-perf-data/sleep.compressed.pipe.data|comm,dso,sym|none",
        "corpus:b-callchains-bpf|comm,dso,sym|folded"})
    void reportIsPerfsWithNoKallsyms(String file, String sort, String graph) throws Exception {
        PerfOracle.assumeInstalled();
        Path data = file.startsWith("corpus:") ? CorpusFixture.data(file.substring("corpus:".length()))
                : CorpusFixture.EXTERNAL.resolve(file);
        String perf = PerfOracle.run("report", "-i", data.toString(), "--stdio", "--kallsyms", empty.toString(),
                "--sort", sort, "-g", graph);
        Report.Options o = Report.Options.builder(data).symbols(zeroed, null).buildIdDir(CorpusFixture.buildIdDir())
                .sort(SortKey.parse(sort)).callGraph(CallchainParams.parse(graph)).build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Report.run(o, new PrintStream(out, true, StandardCharsets.UTF_8));
        List<String> jperf = PerfOracle.withoutTip(out.toString(StandardCharsets.UTF_8));
        assertTrue(jperf.stream().anyMatch(l -> l.matches(".*\\[k\\] 0x[0-9a-f]{16}")), "no unresolved kernel sample");
        assertEquals(PerfOracle.withoutTip(perf), jperf);
    }

    /** perf script and the folded export read symbols through the same resolver. */
    @Test
    void scriptAndFoldedArePerfsWithNoKallsyms() throws Exception {
        PerfOracle.assumeInstalled();
        Path data = CorpusFixture.data("b-callchains-bpf");
        String perf = PerfOracle.run("script", "-i", data.toString(), "--kallsyms", empty.toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PerfDataFile f = PerfDataFile.open(data)) {
            Script.run(f, Script.Options.defaults().withBuildIdDir(CorpusFixture.buildIdDir()).withSymbols(zeroed, null), out);
        }
        String script = out.toString(StandardCharsets.UTF_8);
        assertTrue(script.contains(" [unknown] ([kernel.kallsyms])"), "no unresolved kernel frame");
        assertEquals(perf, script);

        ByteArrayOutputStream folded = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PerfDataFile f = PerfDataFile.open(data)) {
            Exports.folded(f, SymbolResolver.Options.defaults(zeroed, null, CorpusFixture.buildIdDir()), folded,
                    new PrintStream(err, true, StandardCharsets.UTF_8));
        }
        try (PerfDataFile f = PerfDataFile.open(data)) {
            ByteArrayOutputStream none = new ByteArrayOutputStream();
            Exports.folded(f, SymbolResolver.Options.defaults(empty, null, CorpusFixture.buildIdDir()), none,
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            assertEquals(none.toString(StandardCharsets.UTF_8), folded.toString(StandardCharsets.UTF_8));
        }
        assertTrue(folded.toString(StandardCharsets.UTF_8).contains("bpf_prog_"), "BPF frames are named by the file's KSYMBOLs");
    }

    /**
     * The running kernel's kallsyms read zeroed (as by a user): no kernel table, and the reason among
     * the warnings (a user the kernel restricts does not read it at all, as perf).
     */
    @Test
    void zeroedProcKallsymsIsIgnored() {
        for (boolean prefetch : new boolean[] {false, true}) {
            SymbolResolver r = new SymbolResolver(new SymbolResolver.Options(null, null, tmp.resolve("no-cache"),
                    tmp.resolve("no-debug"), zeroed, tmp.resolve("no-notes"), tmp));
            if (prefetch) {
                r.prefetchKallsyms(null);
            }
            assertNull(r.kallsyms(null));
            Dso k = r.dso(SymbolResolver.KERNEL_NAME, Dso.Kind.KERNEL);
            assertSame(SymbolTable.EMPTY, r.load(k));
            if (SymbolResolver.kernelRestricted()) {
                // a user the kernel restricts: as perf, no kallsyms it was not given is read, so none to warn of
                assertEquals(List.of(), r.warnings());
            } else {
                assertEquals(List.of(zeroed + ": every address is 0 (as the kernel shows them to a user it hides them from:"
                        + " kptr_restrict, perf_event_paranoid): kernel symbols unresolved"), r.warnings());
            }
        }
    }
}
