package dev.jperf.report.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jperf.format.PerfDataFile;
import dev.jperf.report.CorpusFixture;
import dev.jperf.report.Report;
import dev.jperf.report.session.SampleFilter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code report --flamegraph} in a real browser (headless Chromium): the page draws every frame of
 * its data, a BPF frame's tooltip names its program, subprogram and BTF source lines, a search's
 * share is perf's Children (or, with --no-children, Self) of the symbol, click zooms; the file is
 * self-contained and the report's filters hold. Saves a screenshot (target/flamegraph.png).
 */
class FlameGraphExportTest {
    @TempDir
    static Path tmp;
    static Path cache;
    static Chromium chromium;

    /**
     * What a user does, run by the page itself after it drew: hover the widest mix_a frame, search
     * for it, then click the comm frame "workload"; each result is left in the DOM.
     */
    private static final String USER = """
            <script>
            (function () {
              const out = document.createElement("pre");
              out.id = "test-results";
              document.body.appendChild(out);
              const frames = () => Array.from(document.querySelectorAll("#graph .f"));
              const results = {frames: frames().length};
              const mixA = frames().filter(d => d.textContent.startsWith("bpf_prog_904d8356ffe3e4ed_mix_a"))
                  .sort((a, b) => b.getBoundingClientRect().width - a.getBoundingClientRect().width)[0];
              results.label = mixA.textContent;
              mixA.dispatchEvent(new MouseEvent("mouseover", {bubbles: true}));
              results.tip = document.getElementById("tip").textContent;
              const search = document.getElementById("search");
              search.value = "_mix_a$";
              search.dispatchEvent(new Event("input"));
              results.status = document.getElementById("status").textContent;
              results.highlighted = document.querySelectorAll("#graph .f.m").length;
              const workload = frames().find(d => d.textContent === "workload");
              workload.dispatchEvent(new MouseEvent("click", {bubbles: true}));
              results.zoomedFrames = frames().length;
              results.zoomedHasSwapper = frames().some(d => d.textContent === "swapper");
              document.getElementById("reset").click();
              results.afterReset = frames().length;
              results.statusAfterReset = document.getElementById("status").textContent;
              out.textContent = JSON.stringify(results);
            })();
            </script>
            """;

    @BeforeAll
    static void setUp() throws Exception {
        CorpusFixture.installBinaries();
        cache = CorpusFixture.buildIdDir();
    }

    static Path export(Report.Options o, String name) {
        Path out = tmp.resolve(name);
        try (PerfDataFile f = PerfDataFile.open(o.input())) {
            Exports.flamegraph(f, o, out.toString(), System.out, System.err);
        }
        return out;
    }

    static Report.Options options() {
        return Report.Options.builder(CorpusFixture.data("b-callchains-bpf")).symbols(CorpusFixture.kallsyms(), null).buildIdDir(cache).build();
    }

    /** The page's embedded data. */
    static JsonNode data(Path html) throws Exception {
        String page = Files.readString(html);
        Matcher m = Pattern.compile("<script id=\"data\" type=\"application/json\">(.*?)</script>", Pattern.DOTALL)
                .matcher(page);
        assertTrue(m.find(), "no data in the page");
        return new ObjectMapper().readTree(m.group(1));
    }

    static int count(JsonNode node) {
        int n = 1;
        for (JsonNode c : node.get(7)) {
            n += count(c);
        }
        return n;
    }

    static List<String> names(JsonNode node, List<String> out) {
        out.add(node.get(0).asText());
        for (JsonNode c : node.get(7)) {
            names(c, out);
        }
        return out;
    }

    /** The page with {@link #USER} run in it, through Chromium: its results. */
    static JsonNode inBrowser(Path html) throws Exception {
        Path page = tmp.resolve("user-" + html.getFileName());
        Files.writeString(page, Files.readString(html).replace("</body>", USER + "</body>"));
        String dom = chromium.dumpDom(page);
        Matcher m = Pattern.compile("<pre id=\"test-results\">(.*?)</pre>", Pattern.DOTALL).matcher(dom);
        assertTrue(m.find(), "the page's script did not finish: " + dom.substring(Math.max(0, dom.length() - 2000)));
        return new ObjectMapper().readTree(m.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
                .replace("&quot;", "\""));
    }

    @Test
    void inChromium() throws Exception {
        chromium = Chromium.find(tmp);
        Path html = export(options(), "b.html");
        String page = Files.readString(html, StandardCharsets.UTF_8);
        assertFalse(Pattern.compile("(src|href)\\s*=|https?://|@import").matcher(page).find(), "the page loads something");
        JsonNode root = data(html).get("graphs").get(0).get("root");
        JsonNode r = inBrowser(html);
        assertEquals(count(root), r.get("frames").asInt(), "frames drawn vs frames in the data");
        assertEquals("bpf_prog_904d8356ffe3e4ed_mix_a [subprogs_main/mix_a]", r.get("label").asText());
        String tip = r.get("tip").asText();
        assertTrue(tip.startsWith("bpf_prog_904d8356ffe3e4ed_mix_a\nkind: JIT/BPF\nsamples: "), tip);
        assertTrue(tip.contains("BPF program: subprogs_main (id 2156, tag b6a1b5bdb8a35599)"), tip);
        assertTrue(tip.contains("subprogram: mix_a\n"), tip);
        assertTrue(Pattern.compile("\\./subprogs\\.bpf\\.c:22  \\d+ samples").matcher(tip).find(), tip);
        // perf's report (corpus golden, --children --sort sym): 14.76% Children for mix_a
        assertTrue(r.get("status").asText().startsWith("Matched: 14.76% (2169 samples, "), r.get("status").asText());
        assertTrue(r.get("highlighted").asInt() > 0);
        assertFalse(r.get("zoomedHasSwapper").asBoolean(), "zoomed into workload but swapper is drawn");
        assertTrue(r.get("zoomedFrames").asInt() < r.get("frames").asInt());
        assertEquals(r.get("frames").asInt(), r.get("afterReset").asInt());
        assertEquals("", r.get("statusAfterReset").asText());
        Path png = Path.of("target", "flamegraph.png");
        Files.createDirectories(png.getParent());
        chromium.screenshot(html, png, 1400, 900);
    }

    @Test
    void noChildrenSearchIsSelf() throws Exception {
        chromium = Chromium.find(tmp);
        Path html = export(options().toBuilder().children(false).build(), "self.html");
        JsonNode r = inBrowser(html);
        // perf's report (corpus golden): 14.74% Self for mix_a
        assertTrue(r.get("status").asText().startsWith("Matched: 14.74% (2166 samples, "), r.get("status").asText());
        assertTrue(r.get("tip").asText().contains("(14.6"), r.get("tip").asText());
    }

    @Test
    void filtersHold() throws Exception {
        Path html = export(options().toBuilder().filter(SampleFilter.tasks(Set.of("workload"), null, null)).build(), "w.html");
        JsonNode g = data(html).get("graphs").get(0);
        List<String> names = names(g.get("root"), new ArrayList<>());
        assertFalse(names.contains("swapper") || names.contains("pv_native_safe_halt"), "a filtered comm is drawn");
        assertTrue(names.contains("workload") && names.contains("bpf_prog_904d8356ffe3e4ed_mix_a"));
        // shares stay of all samples (perf's --percentage absolute)
        assertEquals(14694, g.get("totalSamples").asInt());
        assertTrue(g.get("root").get(4).asInt() < 14694);
    }

    @Test
    void mergesNarrowFrames() throws Exception {
        Path html = export(options(), "m.html");
        JsonNode root = data(html).get("graphs").get(0).get("root");
        long min = (long) Math.ceil(root.get(2).asLong() * FlameGraphExport.MIN_WIDTH);
        List<JsonNode> todo = new ArrayList<>(List.of(root));
        int merged = 0;
        while (!todo.isEmpty()) {
            JsonNode n = todo.remove(todo.size() - 1);
            int mergedHere = 0;
            for (JsonNode c : n.get(7)) {
                if ("merged".equals(c.get(1).asText())) {
                    merged++;
                    mergedHere++;
                } else {
                    assertTrue(c.get(2).asLong() >= min, c.get(0).asText() + " is narrower than the minimum");
                }
                todo.add(c);
            }
            assertTrue(mergedHere <= 1, n.get(0).asText() + " has more than one merged frame");
        }
        assertTrue(merged > 0, "nothing merged in a 14694-sample graph");
    }
}
