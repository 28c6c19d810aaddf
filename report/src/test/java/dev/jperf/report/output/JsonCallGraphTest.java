package dev.jperf.report.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.jperf.report.CorpusFixture;
import dev.jperf.report.Report;
import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.SortKey;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * report --json on corpus case b-callchains-bpf against the stdio report of the same run: the same
 * rows with the same Children/Self (or Overhead) percentages, and under each row the call graph the
 * stdio report prints, node for node: every printed line of the graph is read back as (value,
 * symbol), (lone root, symbol) or (continuation, symbol) and must match the JSON tree walked in
 * order. The stdio report itself is checked against perf's golden by CorpusReportTest and
 * CallGraphReportTest.
 */
class JsonCallGraphTest {
    static final Path CASE = CorpusFixture.data("b-callchains-bpf");
    static final Pattern ROW = Pattern.compile("^\\s+(\\d+\\.\\d+)%\\s+(?:(\\d+\\.\\d+)%\\s+)?(.*?)\\s*$");
    static final Pattern VALUE = Pattern.compile("^[ |]*--(\\d+\\.\\d+)%--(.*)$");
    static final Pattern ROOT = Pattern.compile("^ {12}---(.*)$");

    @BeforeAll
    static void setUp() {
        Assumptions.assumeTrue(Files.isRegularFile(CASE), "no corpus case at " + CASE);
    }

    @ParameterizedTest(name = "--sort {0} -g {1} children={2}")
    @CsvSource(delimiter = ';', value = {"sym;graph,0.5,caller;true", "comm,dso,sym;graph,0.5,caller;true",
        "sym;graph,0.5,callee;false", "sym;fractal,2,caller;true", "dso,sym;graph,1,10,caller;false"})
    void jsonHasTheStdioRowsAndGraphs(String sort, String graph, boolean children) throws Exception {
        CallchainParams g = CallchainParams.parse(graph);
        String stdio = run(sort, g, children, false);
        // as printed: "2.80" stays 2.80
        JsonNode json = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true)).readTree(run(sort, g, children, true));
        JsonNode rows = json.get("events").get(0).get("rows");
        List<List<String>> blocks = blocks(stdio);
        assertEquals(blocks.size(), rows.size(), "rows");
        int graphs = 0;
        for (int i = 0; i < rows.size(); i++) {
            JsonNode r = rows.get(i);
            List<String> block = blocks.get(i);
            Matcher m = ROW.matcher(block.get(0));
            assertTrue(m.matches(), block.get(0));
            if (children) {
                assertEquals(m.group(1), pct(r.get("children").asDouble()), "row " + i);
                assertEquals(m.group(2), pct(r.get("self").asDouble()), "row " + i);
            } else {
                assertEquals(m.group(1), pct(r.get("overhead").asDouble()), "row " + i);
            }
            List<String> want = graphLines(block.subList(1, block.size()));
            List<String> got = new ArrayList<>();
            JsonNode cg = r.get("callgraph");
            if (cg != null) {
                graphs++;
                assertEquals(g.mode().name().toLowerCase(Locale.ROOT), cg.get("mode").asText());
                boolean first = true;
                for (JsonNode s : iterable(cg.get("root"))) {
                    got.add((first ? "root " : "sym ") + s.asText());
                    first = false;
                }
                walk(cg.get("children"), got);
            }
            assertEquals(want, got, "row " + i + ": " + block.get(0));
        }
        assertTrue(graphs > 10, graphs + " rows with a graph");
    }

    private static void walk(JsonNode children, List<String> out) {
        for (JsonNode c : iterable(children)) {
            JsonNode syms = c.get("symbols");
            out.add(c.get("percent").decimalValue().toPlainString() + "% " + syms.get(0).asText());
            for (int i = 1; i < syms.size(); i++) {
                out.add("sym " + syms.get(i).asText());
            }
            walk(c.get("children"), out);
        }
    }

    private static Iterable<JsonNode> iterable(JsonNode n) {
        return n == null ? List.of() : n::elements;
    }

    /** The printed graph lines as (value, symbol), (lone root, symbol) or (continuation, symbol). */
    private static List<String> graphLines(List<String> lines) {
        List<String> out = new ArrayList<>();
        for (String l : lines) {
            Matcher v = VALUE.matcher(l);
            Matcher root = ROOT.matcher(l);
            if (v.matches()) {
                out.add(v.group(1) + "% " + v.group(2));
            } else if (root.matches()) {
                out.add("root " + root.group(1));
            } else {
                String name = l.replaceFirst("^[ |]+", "");
                if (!name.isEmpty()) {
                    out.add("sym " + name);
                }
            }
        }
        return out;
    }

    /** Each table row with the graph lines under it. */
    private static List<List<String>> blocks(String stdio) {
        List<List<String>> out = new ArrayList<>();
        for (String l : stdio.lines().toList()) {
            if (l.startsWith("#") || l.isEmpty()) {
                continue;
            }
            if (ROW.matcher(l).matches() && !l.startsWith("            ")) {
                out.add(new ArrayList<>(List.of(l)));
            } else {
                out.get(out.size() - 1).add(l);
            }
        }
        return out;
    }

    private static String pct(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String run(String sort, CallchainParams graph, boolean children, boolean json) {
        Report.Options o = Report.Options.builder(CASE).buildIdDir(CorpusFixture.buildIdDir()).sort(SortKey.parse(sort)).children(children)
                .callGraph(graph).symbols(CorpusFixture.kallsyms(), null).json(json).build();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Report.run(o, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
