package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.CorpusFixture;
import dev.jperf.report.PerfOracle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * jperf report on a terminal (tmux panes) against perf report 6.1 in a pane of the same size on
 * the same file: the browser's title, header and rows, its thread and DSO zooms, folded call
 * chains, annotate from a row; --stdio through $PERF_PAGER/$PAGER as perf pages it (its colours
 * too), perf's global --no-pager, and no pager nor browser when stdout is not a terminal.
 */
class ReportBrowserTest {
    private static final int COLS = 120;
    private static final int ROWS = 30;

    @TempDir
    Path tmp;

    private static String quoted(List<String> cmd) {
        StringBuilder b = new StringBuilder();
        for (String a : cmd) {
            b.append(b.length() == 0 ? "" : " ").append('\'').append(a.replace("'", "'\\''")).append('\'');
        }
        return b.toString();
    }

    private static List<String> report(String tool, String kase, String... more) {
        List<String> args = new ArrayList<>(List.of("--buildid-dir", CorpusFixture.buildIdDir().toString(), "report", "-i",
                CorpusFixture.data(kase).toString(), "--kallsyms", CorpusFixture.kallsyms().toString()));
        args.addAll(List.of(more));
        if (tool.equals("perf")) {
            List<String> cmd = new ArrayList<>(List.of("perf"));
            cmd.addAll(args);
            return cmd;
        }
        return TopTest.jperf(args.toArray(String[]::new));
    }

    /**
     * The pane without its last line (perf's tip, jperf's keys), nor perf's scroll bar in the last
     * column (jperf draws none).
     */
    private static List<String> screen(String pane) {
        List<String> lines = new ArrayList<>();
        for (String l : pane.lines().toList()) {
            lines.add(l.replaceFirst("[\u25c6\u2592]$", "").stripTrailing());
        }
        while (lines.size() > ROWS - 1) {
            lines.remove(lines.size() - 1);
        }
        return lines;
    }

    /** perf's and jperf's panes once both show {@code text}: the same lines. */
    private static void same(Tmux tmux, String text) throws Exception {
        List<String> perf = screen(tmux.await("perf", text));
        List<String> jperf = screen(tmux.await("jperf", text));
        assertEquals(perf, jperf);
    }

    private void both(Tmux tmux, String kase) throws Exception {
        tmux.start("perf", COLS, ROWS, tmp.resolve("perf.sh"), "exec " + quoted(report("perf", kase)) + " 2>/dev/null\n");
        tmux.start("jperf", COLS, ROWS, tmp.resolve("jperf.sh"),
                "exec " + quoted(report("jperf", kase)) + " 2>" + tmp.resolve("jperf.err") + "\n");
    }

    private void keys(Tmux tmux, String... keys) throws Exception {
        tmux.keys("perf", keys);
        tmux.keys("jperf", keys);
    }

    @Test
    void rowsAndZoomsAsPerfTui() throws Exception {
        PerfOracle.assumeInstalled();
        try (Tmux tmux = new Tmux("reportbrowser")) {
            both(tmux, "c-process");
            same(tmux, "Samples: ");
            // the first row's thread (perf: its Command column kept, the widths of the rows left)
            keys(tmux, "t");
            same(tmux, ", Thread: ");
            keys(tmux, "t");
            tmux.awaitGone("perf", ", Thread: ");
            tmux.awaitGone("jperf", ", Thread: ");
            // the second row's DSO: its Shared Object column left out
            keys(tmux, "Down", "d");
            same(tmux, ", DSO: ");
            keys(tmux, "d");
            tmux.awaitGone("jperf", ", DSO: ");
            tmux.keys("jperf", "q");
            assertTrue(tmux.ends("jperf"), "q did not end jperf report: " + Files.readString(tmp.resolve("jperf.err")));
        }
    }

    @Test
    void callChainsFoldAndAnnotate() throws Exception {
        PerfOracle.assumeInstalled();
        try (Tmux tmux = new Tmux("reportchains")) {
            both(tmux, "b-callchains-bpf");
            same(tmux, "Samples: ");
            String folded = tmux.pane("jperf").lines().skip(2).findFirst().orElse("");
            assertTrue(folded.startsWith("+ "), folded);
            tmux.keys("jperf", "+");
            String open = tmux.await("jperf", "-" + folded.substring(1));
            assertTrue(open.contains("---"), "the expanded row's call graph:\n" + open);
            tmux.keys("jperf", "+", "/");
            tmux.keys("jperf", "-l", "subprogs_main");
            tmux.keys("jperf", "Enter");
            tmux.await("jperf", "filter: subprogs_main");
            Run stdio = Run.of("--buildid-dir", CorpusFixture.buildIdDir().toString(), "report", "-i",
                    CorpusFixture.data("b-callchains-bpf").toString(), "--kallsyms", CorpusFixture.kallsyms().toString(),
                    "--stdio", "-g", "none");
            String row = stdio.out().lines().filter(l -> l.contains("subprogs_main") && !l.startsWith("#")).findFirst()
                    .orElseThrow();
            String sym = row.substring(row.lastIndexOf("[k] ") + 4);
            // the view is jperf annotate's (checked against perf annotate on its own) for the row's symbol
            Run a = Run.of("--buildid-dir", CorpusFixture.buildIdDir().toString(), "annotate", "-i",
                    CorpusFixture.data("b-callchains-bpf").toString(), "--kallsyms", CorpusFixture.kallsyms().toString(),
                    "--stdio", sym.strip());
            String first = a.out().lines().filter(l -> l.contains("Source code of")).findFirst().orElseThrow();
            tmux.keys("jperf", "a");
            String view = tmux.await("jperf", "back to the rows");
            String title = first.substring(first.indexOf("Source code of"), first.indexOf(" for "));
            assertTrue(view.contains(title), title + "\n" + view);
            tmux.keys("jperf", "q");
            tmux.await("jperf", "filter: subprogs_main");
            tmux.keys("jperf", "q");
            assertTrue(tmux.ends("jperf"), "q did not end jperf report: " + Files.readString(tmp.resolve("jperf.err")));
        }
    }

    @Test
    void stdioThroughThePagerAsPerf() throws Exception {
        PerfOracle.assumeInstalled();
        StringBuilder script = new StringBuilder();
        for (String tool : List.of("perf", "jperf")) {
            for (String kase : List.of("c-process", "b-callchains-bpf")) {
                script.append("PAGER='cat > ").append(tmp.resolve(tool + "-" + kase)).append("' ")
                        .append(quoted(report(tool, kase, "--stdio"))).append(" 2>/dev/null\n");
            }
            // PERF_PAGER first; perf's --no-pager: none at all
            script.append("PERF_PAGER='cat > ").append(tmp.resolve(tool + "-perfpager")).append("' PAGER='cat > ")
                    .append(tmp.resolve(tool + "-pager")).append("' ").append(quoted(report(tool, "c-process", "--stdio")))
                    .append(" 2>/dev/null\n");
            List<String> noPager = new ArrayList<>(report(tool, "c-process", "--stdio"));
            noPager.add(noPager.indexOf("--buildid-dir"), "--no-pager");
            script.append("PAGER='cat > ").append(tmp.resolve(tool + "-nopager")).append("' ").append(quoted(noPager))
                    .append(" >").append(tmp.resolve(tool + "-direct")).append(" 2>&1\n");
        }
        script.append("touch ").append(tmp.resolve("done")).append("\nsleep 60\n");
        try (Tmux tmux = new Tmux("reportpager")) {
            tmux.start("pager", COLS, ROWS, tmp.resolve("pager.sh"), script.toString());
            for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120); !Files.exists(tmp.resolve("done"))
                    && System.nanoTime() < end; Thread.sleep(300)) {
                // the commands run one after another
            }
            assertTrue(Files.exists(tmp.resolve("done")), tmux.pane("pager"));
        }
        for (String kase : List.of("c-process", "b-callchains-bpf")) {
            String perf = Files.readString(tmp.resolve("perf-" + kase), StandardCharsets.UTF_8);
            assertTrue(perf.contains("\033[31m"), "perf coloured its paged report: " + kase);
            assertEquals(PerfOracle.withoutTip(perf), PerfOracle.withoutTip(Files.readString(tmp.resolve("jperf-" + kase))), kase);
        }
        for (String tool : List.of("perf", "jperf")) {
            assertTrue(Files.exists(tmp.resolve(tool + "-perfpager")), tool + ": PERF_PAGER");
            assertFalse(Files.exists(tmp.resolve(tool + "-pager")), tool + ": PAGER after PERF_PAGER");
            assertFalse(Files.exists(tmp.resolve(tool + "-nopager")), tool + ": --no-pager");
        }
        // --no-pager: straight to stdout (not a terminal here: no colours)
        assertEquals(PerfOracle.withoutTip(Files.readString(tmp.resolve("perf-direct"))),
                PerfOracle.withoutTip(Files.readString(tmp.resolve("jperf-direct"))));
    }

    /** stdout not a terminal: the stdio report, no pager, --tui or not (perf's setup_browser). */
    @Test
    void noTerminalNoPagerNorBrowser() throws Exception {
        PerfOracle.assumeInstalled();
        for (String tool : List.of("perf", "jperf")) {
            ProcessBuilder pb = new ProcessBuilder(report(tool, "c-process", "--tui"))
                    .redirectOutput(tmp.resolve(tool + ".out").toFile()).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            pb.environment().put("PAGER", "cat > " + tmp.resolve(tool + ".paged"));
            Process p = pb.start();
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), tool);
            assertEquals(0, p.exitValue(), tool);
            assertFalse(Files.exists(tmp.resolve(tool + ".paged")), tool);
        }
        String perf = Files.readString(tmp.resolve("perf.out"));
        assertTrue(perf.contains("# Overhead"), perf);
        assertEquals(PerfOracle.withoutTip(perf), PerfOracle.withoutTip(Files.readString(tmp.resolve("jperf.out"))));
    }
}
