package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.format.Corpus;
import dev.jperf.report.PerfOracle;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Every option perf 6.1 lists ({@code perf CMD -h}, run live) for the commands jperf shares with it
 * is either accepted by jperf (its own option table, {@code jperf CMD -h}) or in the committed
 * backlog, docs/perf-options-pending.txt; and the backlog names only options perf has and jperf
 * does not accept yet. Options are taken from both listings by docs/perf-options.sh's own rule,
 * so the generated table and this test agree.
 */
class PerfOptionsTest {
    static final List<String> COMMANDS = List.of("record", "report", "script", "stat", "annotate", "inject", "top", "diff");
    private static final Path DOCS = Corpus.TESTDATA.resolveSibling("docs");

    @Test
    void everyPerfOptionIsAcceptedOrPending() throws Exception {
        PerfOracle.assumeInstalled();
        Set<String> pending = pending();
        List<String> problems = new ArrayList<>();
        Set<String> perfListed = new LinkedHashSet<>();
        for (String cmd : COMMANDS) {
            List<String> perf = options(PerfOracle.usage(cmd));
            Run help = Run.of(cmd, "-h");
            assertEquals(0, help.rc(), help.err());
            List<String> ours = options(help.out());
            assertTrue(perf.size() > 10 && ours.size() >= 2, cmd + ": perf " + perf + ", jperf " + ours);
            for (String o : perf) {
                String entry = cmd + " " + o;
                perfListed.add(entry);
                if (ours.contains(o) && pending.contains(entry)) {
                    problems.add("jperf " + cmd + " accepts " + o + " now: remove '" + entry + "' from the pending list");
                } else if (!ours.contains(o) && !pending.contains(entry)) {
                    problems.add("perf " + cmd + " lists " + o + ", which jperf neither accepts nor lists as pending ('"
                            + entry + "')");
                }
            }
        }
        for (String entry : pending) {
            if (!perfListed.contains(entry)) {
                problems.add("the pending list names '" + entry + "', an option perf does not list");
            }
        }
        assertEquals(List.of(), problems, "docs/perf-options-pending.txt against perf " + COMMANDS + " -h");
    }

    /** The backlog's "COMMAND OPTION" lines; a line twice or of another shape is an error of the list. */
    static Set<String> pending() throws IOException {
        Set<String> entries = new LinkedHashSet<>();
        for (String line : Files.readAllLines(DOCS.resolve("perf-options-pending.txt"))) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split(" ");
            assertTrue(f.length == 2 && COMMANDS.contains(f[0]) && f[1].matches("--?[A-Za-z0-9?][a-z0-9-]*"),
                    "pending list line: '" + line + "'");
            assertTrue(entries.add(line), "pending list line twice: '" + line + "'");
        }
        return entries;
    }

    /** A -h listing's options through {@code sh docs/perf-options.sh options}: the table's rule. */
    static List<String> options(String listing) throws Exception {
        Process p = new ProcessBuilder("sh", DOCS.resolve("perf-options.sh").toString(), "options")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(listing.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "perf-options.sh options timed out");
        assertEquals(0, p.exitValue(), "perf-options.sh options");
        return out.lines().toList();
    }
}
