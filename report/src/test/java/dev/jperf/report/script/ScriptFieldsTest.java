package dev.jperf.report.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jperf.format.PerfDataFile;
import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code script -F} fields beyond the defaults against {@code perf script -F} byte for byte, perf
 * being the oracle: brstack and brstacksym (with and without dso) on every external file with
 * PERF_SAMPLE_BRANCH_STACK; iregs/uregs and addr on files perf records here (cpu-clock with
 * --intr-regs --user-regs; page-faults with -d, whose data addresses perf names with symbols).
 * Both read this machine's /proc/kallsyms for the recordings made here. --json is checked against
 * the text.
 */
class ScriptFieldsTest {
    static final Path EXTERNAL = CorpusFixture.EXTERNAL.resolve("perf_data_converter");
    static final List<String> BRANCH_FIELDS = List.of("ip,brstack", "ip,dso,brstack", "ip,brstacksym",
            "ip,sym,dso,brstacksym", "comm,tid,time,period,ip,sym,symoff,dso,brstack", "tid,brstacksym,dso");

    @TempDir
    static Path tmp;

    @BeforeAll
    static void perfIsInstalled() {
        PerfOracle.assumeInstalled();
    }

    static Stream<Arguments> branchCases() {
        List<Arguments> out = new ArrayList<>();
        for (String f : List.of("perf.data.branch-4.14", "perf.data.branch_stack_hw_index", "perf.data.branch_stack_spec",
                "perf.data.callgraph_and_branch-3.4", "perf.data.callgraph_and_branch-3.8",
                "perf.data.raw_callgraph_branch-3.4")) {
            for (String fields : BRANCH_FIELDS) {
                out.add(Arguments.of(f, fields));
            }
        }
        return out.stream();
    }

    /**
     * Three of these files have callchains too, and branches and callchains into kernel modules
     * that perf names by their HEADER_BUILD_ID path.
     */
    @ParameterizedTest(name = "{0} -F {1}")
    @MethodSource("branchCases")
    void branchStacksAgreeWithPerf(String name, String fields) throws Exception {
        Path file = EXTERNAL.resolve(name);
        Assumptions.assumeTrue(Files.isRegularFile(file), "no " + file);
        String want = PerfOracle.run("script", "-i", file.toString(), "-F", fields);
        assertTrue(want.contains("/P/-/-/0/"), want.lines().findFirst().orElse(""));
        assertEquals(want, jperf(file, fields, false));
    }

    @Test
    void registersAgreeWithPerf() throws Exception {
        Path data = PerfOracle.record(tmp, "regs.data", "--intr-regs", "--user-regs", "-e", "cpu-clock", "-c", "100000", "--",
                "/bin/ls", "-R", "/usr/share/doc");
        for (String fields : List.of("ip,sym,iregs,uregs", "comm,tid,time,iregs", "uregs,ip")) {
            String want = PerfOracle.run("script", "-i", data.toString(), "-F", fields);
            assertTrue(want.contains(" ABI:2    AX:0x"), want.lines().findFirst().orElse(""));
            assertEquals(want, jperf(data, fields, false), fields);
        }
    }

    @Test
    void pageFaultAddressesAgreeWithPerf() throws Exception {
        Path data = PerfOracle.record(tmp, "pf.data", "-g", "-e", "page-faults", "-d", "--", "/bin/ls", "/usr");
        for (String fields : List.of("comm,ip,sym,addr,dso,symoff,period", "addr,sym,dso", "addr", "addr,ip,sym,dso")) {
            String want = PerfOracle.run("script", "-i", data.toString(), "-F", fields);
            assertTrue(!fields.contains("dso") || want.contains("ld-linux-x86-64.so.2)"), want);
            assertEquals(want, jperf(data, fields, false), fields);
        }
        // the registers were not sampled: perf's one line, with the event as perf names it
        // ("page-faults:u" where perf_event_paranoid made perf fall back to user space)
        String event = PerfOracle.run("evlist", "-i", data.toString()).strip();
        assertTrue(event.startsWith("page-faults"), event);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> jperf(data, "ip,iregs", false));
        assertEquals("Samples for '" + event + "' event do not have IREGS attribute set. Cannot print 'iregs' field.",
                e.getMessage());
    }

    /** --json carries the same values: the text line rebuilt from each object equals jperf's text (which equals perf's). */
    @Test
    void jsonCarriesTheSameBranchesRegistersAndAddresses() throws Exception {
        Path branches = EXTERNAL.resolve("perf.data.branch-4.14");
        Assumptions.assumeTrue(Files.isRegularFile(branches), "no " + branches);
        assertSameAsText(branches, "ip,dso,brstack", j -> {
            StringBuilder b = new StringBuilder(ip(j) + " (" + j.get("dso").asText() + ")");
            for (JsonNode e : j.get("brstack")) {
                b.append(" ").append(e.get("from").asText()).append('(').append(e.get("from_dso").asText())
                        .append(")/").append(e.get("to").asText()).append('(').append(e.get("to_dso").asText())
                        .append(')').append(flags(e));
            }
            return b.toString();
        });
        assertSameAsText(branches, "ip,brstacksym", j -> {
            StringBuilder b = new StringBuilder(ip(j));
            for (JsonNode e : j.get("brstack")) {
                b.append(sym(e, "from_")).append('/').append(sym(e, "to_")).append(flags(e));
            }
            return b.toString();
        });
        Path regs = PerfOracle.record(tmp, "json-regs.data", "--intr-regs", "-e", "cpu-clock", "-c", "200000", "--", "/bin/ls", "-R",
                "/usr/share/doc");
        assertSameAsText(regs, "ip,iregs", j -> {
            StringBuilder b = new StringBuilder(ip(j) + " ABI:" + j.get("iregs").get("abi").asText() + " ");
            j.get("iregs").get("regs").fields().forEachRemaining(r -> b.append(String.format("%5s:%s ", r.getKey(),
                    r.getValue().asText())));
            return b.toString();
        });
        Path pf = PerfOracle.record(tmp, "json-pf.data", "-e", "page-faults", "-d", "--", "/bin/ls", "/usr");
        assertSameAsText(pf, "addr,sym,dso,symoff", j -> String.format("%16s", j.get("addr").asText().substring(2))
                + " " + sym(j, "addr_") + " (" + j.get("addr_dso").asText() + ")");
    }

    private static String ip(JsonNode j) {
        return String.format(" %16s", j.get("ip").asText().substring(2));
    }

    private static String sym(JsonNode e, String prefix) {
        JsonNode off = e.get(prefix + "symoff");
        return e.get(prefix + "sym").asText() + (off == null ? "" : "+0x" + Long.toHexString(off.asLong()));
    }

    private static String flags(JsonNode e) {
        return "/" + e.get("mispred").asText() + "/" + (e.get("in_tx").asBoolean() ? "X" : "-") + "/"
                + (e.get("abort").asBoolean() ? "A" : "-") + "/" + e.get("cycles").asInt() + "/"
                + e.get("type").asText() + " ";
    }

    private static void assertSameAsText(Path file, String fields, java.util.function.Function<JsonNode, String> line)
            throws Exception {
        List<String> text = jperf(file, fields, false).lines().toList();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PerfDataFile f = PerfDataFile.open(file)) {
            Script.run(f, Script.Options.defaults().withBuildIdDir(CorpusFixture.buildIdDir()).withFields(fields).withJson(true), out);
        }
        List<String> json = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(text.size(), json.size(), fields);
        ObjectMapper m = new ObjectMapper();
        for (int i = 0; i < text.size(); i++) {
            assertEquals(text.get(i), line.apply(m.readTree(json.get(i))), fields + " line " + (i + 1));
        }
    }

    @Test
    void addrOfAnEventWithoutIt() {
        Path file = EXTERNAL.resolve("perf.data.branch-4.14");
        Assumptions.assumeTrue(Files.isRegularFile(file), "no " + file);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> jperf(file, "ip,addr", false));
        assertTrue(e.getMessage().matches("Samples for '.*' event do not have ADDR attribute set\\. Cannot print 'addr'"
                + " field\\."), e.getMessage());
    }

    static String jperf(Path file, String fields, boolean hideCallGraph) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PerfDataFile f = PerfDataFile.open(file)) {
            Script.run(f, Script.Options.defaults().withBuildIdDir(CorpusFixture.buildIdDir()).withFields(fields).withHideCallGraph(hideCallGraph), out);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
