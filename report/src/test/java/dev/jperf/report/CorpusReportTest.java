package dev.jperf.report;

import dev.jperf.report.aggregate.CallchainParams;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.aggregate.SortKey;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every corpus case against perf's golden reports, row by row (compare_report.py's rules: same
 * rows, same order, same percentages as printed, same Samples / Event count / Lost header lines).
 *
 * <p>One environment difference is allowed and only that one: rows of {@code [vdso]} when the
 * recording's vdso image (by build-id) is not on this machine. perf 6.1 cannot name them here
 * either (it prints the raw address, as jperf does); those rows are dropped from both sides
 * before comparing, everything else must match exactly.
 */
class CorpusReportTest {
    static final Pattern ROW = Pattern.compile("^\\s+(\\d+\\.\\d+%)(?:\\s+(\\d+\\.\\d+%))?\\s+(.*?)\\s*$");
    static final Pattern HDR = Pattern.compile("# (Samples|Event count|Total Lost).*");

    @BeforeAll
    static void setUp() {
        CorpusFixture.installBinaries();
    }

    static Stream<Arguments> cases() throws IOException {
        List<Arguments> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(CorpusFixture.CORPUS)) {
            for (Path d : s.sorted().toList()) {
                if (!Files.isRegularFile(d.resolve("report-sort-sym.txt"))) {
                    continue;
                }
                for (String sort : List.of("sym", "comm,dso,sym")) {
                    Path g = d.resolve("report-sort-" + sort.replace(',', '-') + ".txt");
                    Path gnone = d.resolve("report-sort-" + sort.replace(',', '-') + "-gnone.txt");
                    if (Files.isRegularFile(gnone)) {
                        out.add(Arguments.of(d.getFileName().toString(), sort, false, gnone));
                    } else {
                        out.add(Arguments.of(d.getFileName().toString(), sort, true, g));
                    }
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} --sort {1} graph={2}")
    @MethodSource("cases")
    void rowsEqualPerfs(String name, String sort, boolean callGraph, Path golden) throws Exception {
        Report.Options o = Report.Options.builder(CorpusFixture.data(name)).buildIdDir(CorpusFixture.buildIdDir()).sort(SortKey.parse(sort))
                .callGraph(callGraph ? CallchainParams.DEFAULT : CallchainParams.NO_GRAPH)
                .symbols(CorpusFixture.kallsyms(), null).build();
        List<String> ours = report(o);
        List<String> theirs = Files.readAllLines(golden);
        java.util.Set<String> vdsoRows = unresolvedVdsoRows(o);
        boolean vdsoHere = vdsoRows.isEmpty();
        List<String> g = rows(theirs, !vdsoHere, java.util.Set.of());
        List<String> c = rows(ours, !vdsoHere, vdsoRows);
        assertEquals(headers(theirs), headers(ours), name + ": header lines");
        int n = Math.min(g.size(), c.size());
        for (int i = 0; i < n; i++) {
            assertEquals(g.get(i), c.get(i), name + " --sort " + sort + ": row " + i);
        }
        assertEquals(g.size(), c.size(), name + " --sort " + sort + ": number of rows");
        assertTrue(g.size() > 10, "too few rows compared");
    }

    /** What jperf report prints for the options, as lines. */
    static List<String> report(Report.Options o) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Report.run(o, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    /**
     * The Symbol-column texts of [vdso] entries jperf could not name (the recorded vdso image is
     * not on this machine); empty when there are none.
     */
    private static java.util.Set<String> unresolvedVdsoRows(Report.Options o) {
        java.util.Set<String> out = new java.util.HashSet<>();
        try (dev.jperf.format.PerfDataFile f = dev.jperf.format.PerfDataFile.open(o.input())) {
            for (var h : Report.aggregate(f, o).hists()) {
                for (var e : h.sorted()) {
                    if (e.dso() != null && e.dso().kind() == dev.jperf.report.symbol.Dso.Kind.VDSO && e.symbol() == null) {
                        out.add(e.symbolText());
                    }
                }
            }
        }
        return out;
    }

    private static List<String> headers(List<String> lines) {
        return lines.stream().filter(l -> HDR.matcher(l).matches()).map(String::strip).toList();
    }

    /** Rows as compare_report.py normalises them; vdso rows dropped when asked. */
    static List<String> rows(List<String> lines, boolean dropVdso, java.util.Set<String> vdsoTexts) {
        List<String> out = new ArrayList<>();
        for (String l : lines) {
            if (l.startsWith("#")) {
                continue;
            }
            Matcher m = ROW.matcher(l);
            if (!m.matches()) {
                continue;
            }
            String rest = m.group(3).replaceAll("\\s+", " ");
            if (dropVdso && (rest.contains("[vdso]") || rest.contains("__vdso_") || vdsoTexts.stream().anyMatch(rest::endsWith))) {
                continue;
            }
            out.add(m.group(1) + " " + (m.group(2) == null ? "" : m.group(2)) + " " + rest);
        }
        return out;
    }
}
