package dev.jperf.report.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.perftools.profiles.ProfileProto.Profile;
import dev.jperf.format.PerfDataFile;
import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import dev.jperf.report.Report;
import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.report.session.SampleFilter;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** report --time start,stop (perf's time span, either end open) against perf, and the exports under it. */
class TimeRangeTest {
    @TempDir
    static Path tmp;
    static Path cache;

    @BeforeAll
    static void setUp() throws Exception {
        PerfOracle.assumeInstalled();
        CorpusFixture.installBinaries();
        cache = CorpusFixture.buildIdDir();
    }

    @ParameterizedTest
    @ValueSource(strings = {"5498.856803,5499.613799", "5499.1,", ",5498.9"})
    void reportAndExportsKeepTheSpan(String range) throws Exception {
        Path data = CorpusFixture.data("b-callchains-bpf");
        String perf = PerfOracle.run("report", "-i", data.toString(), "--stdio",
                "--kallsyms", CorpusFixture.kallsyms().toString(), "--time", range, "--no-children", "--sort", "comm,sym", "-g", "none",
                "-n");
        Report.Options o = Report.Options.builder(data).symbols(CorpusFixture.kallsyms(), null).buildIdDir(cache)
                .sort(SortKey.parse("comm,sym")).children(false).callGraph(CallchainParams.NO_GRAPH).showSamples(true)
                .filter(SampleFilter.NONE.withTime(range)).build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Path pprof = tmp.resolve("t.pb.gz");
        Report.run(o, new PrintStream(out, true, StandardCharsets.UTF_8));
        try (PerfDataFile f = PerfDataFile.open(data)) {
            Exports.pprof(f, o, pprof.toString(), System.out, System.err);
        }
        FoldedExportTest.assertSameLines(PerfOracle.withoutTip(perf), PerfOracle.withoutTip(out.toString(StandardCharsets.UTF_8)));
        // the rows' sample counts add up to what the pprof profile holds
        long rows = 0;
        Matcher m = Pattern.compile("(?m)^\\s+[\\d.]+%\\s+(\\d+)\\s").matcher(perf);
        while (m.find()) {
            rows += Long.parseLong(m.group(1));
        }
        long profiled = 0;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(pprof))) {
            for (var s : Profile.parseFrom(in).getSampleList()) {
                profiled += s.getValue(0);
            }
        }
        assertTrue(rows > 100 && rows < 14694, "rows: " + rows);
        assertEquals(rows, profiled);
    }

    @ParameterizedTest
    @ValueSource(strings = {"5499", "10%/2", "5499.2,5499.1", "a,b"})
    void badSpansAreOneLine(String range) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SampleFilter.NONE.withTime(range));
        assertTrue(e.getMessage().startsWith("--time " + range + ": "), e.getMessage());
    }
}
