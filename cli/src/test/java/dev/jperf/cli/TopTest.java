package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jperf top --stdio} on a known CPU workload (samples' spin, profiled by -p): its hot
 * function on the screen, and the screen's shape against perf top --stdio run live on the same
 * workload (clear, header line up to its rates, dashed line, empty line, rows).
 */
class TopTest {
    private static final Path SPIN = Path.of(System.getProperty("jperf.root", ".."), "samples/bin/jperf-sample-spin");
    private static final String CLEAR = "\033[H\033[2J";
    /** The header's rates differ run to run; what follows them must not. */
    private static final Pattern HEADER = Pattern.compile(
            "   PerfTop: {0,7}\\d+ irqs/sec  kernel:[ 0-9.]{4}%  exact: [ 0-9.]{4}% lost: \\d+/\\d+ drop: \\d+/\\d+ (\\[.*)");
    private static final Pattern ROW = Pattern.compile(" {3,}\\d+\\.\\d\\d%  (\\S+) +\\[[.k]\\] (.+)");

    @TempDir
    Path tmp;

    /** Runs {@code cmd} until {@code until} is on its stdout or 40 s pass, then SIGTERM; its stdout. */
    private String run(List<String> cmd, String until, String name) throws Exception {
        Path out = tmp.resolve(name + ".out");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(tmp.resolve(name + ".err").toFile());
        pb.environment().remove("LINES");
        pb.environment().remove("COLUMNS");
        Process p = pb.start();
        // stdin a pipe that stays open and silent: perf reads keys from it
        try (OutputStream keys = p.getOutputStream()) {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
            while (System.nanoTime() < end && p.isAlive()) {
                if (Files.readString(out, StandardCharsets.ISO_8859_1).contains(until)) {
                    // one more screen after the one that showed it
                    Thread.sleep(1500);
                    break;
                }
                Thread.sleep(200);
            }
            p.destroy();
            assertTrue(p.waitFor(20, TimeUnit.SECONDS), name + " did not stop on SIGTERM");
        }
        return Files.readString(out, StandardCharsets.ISO_8859_1);
    }

    /** The command line of a jperf of its own (a JVM), this test run's classes. */
    static List<String> jperf(String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "dev.jperf.cli.Main"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** The screens of a perf top --stdio output: each one's lines after the clear. */
    private static List<List<String>> screens(String out) {
        List<List<String>> screens = new ArrayList<>();
        for (String s : out.split(Pattern.quote(CLEAR), -1)) {
            if (!s.isEmpty()) {
                // puts(CONSOLE_CLEAR): a newline after the clear
                assertTrue(s.startsWith("\n"), s);
                screens.add(s.substring(1).lines().toList());
            }
        }
        return screens;
    }

    @Test
    void stdioShowsTheHotFunctionInPerfTopsLayout() throws Exception {
        assumeTrue(Files.isExecutable(SPIN), SPIN + " not built");
        Process spin = new ProcessBuilder(SPIN.toString(), "60").start();
        try {
            String pid = Long.toString(spin.pid());
            String out = run(jperf("top", "--stdio", "-d", "1", "-E", "5", "-p", pid), "spin_step", "jperf");
            assertTrue(out.startsWith(CLEAR + "\n"), out);
            List<List<String>> screens = screens(out);
            assertTrue(screens.size() >= 2, out);
            boolean hot = false;
            for (List<String> s : screens) {
                Matcher h = HEADER.matcher(s.get(0));
                assertTrue(h.matches(), s.get(0));
                assertTrue(h.group(1).endsWith("],  (target_pid: " + pid + ")"), s.get(0));
                // no terminal: perf's 80 columns, a dashed line of 79
                assertEquals("-".repeat(79), s.get(1));
                assertEquals("", s.get(2));
                assertTrue(s.size() - 3 <= 5, "-E 5: " + s);
                for (String row : s.subList(3, s.size())) {
                    Matcher m = ROW.matcher(row);
                    assertTrue(m.matches(), row);
                    assertTrue(row.length() <= 78, row);
                    if (m.group(2).equals("spin_step") && m.group(1).equals("jperf-sample-spin")
                            && Double.parseDouble(row.strip().split("%")[0]) > 50) {
                        hot = true;
                    }
                }
            }
            assertTrue(hot, "spin_step above 50 % on some screen:\n" + out);

            // perf top on the same workload: the same screen shape, the same header after the rates
            String perf;
            try {
                perf = run(List.of("perf", "top", "--stdio", "-d", "1", "-E", "5", "-p", pid), "spin_step", "perf");
            } catch (IOException e) {
                assumeTrue(false, "perf is not installed: " + e.getMessage());
                return;
            }
            assumeTrue(perf.contains("PerfTop:"), "perf top did not run here: "
                    + Files.readString(tmp.resolve("perf.err")));
            List<String> first = withSymbol(screens(perf), "spin_step");
            List<String> ours = withSymbol(screens, "spin_step");
            Matcher p = HEADER.matcher(first.get(0));
            assertTrue(p.matches(), first.get(0));
            Matcher j = HEADER.matcher(ours.get(0));
            assertTrue(j.matches(), ours.get(0));
            assertEquals(p.group(1), j.group(1));
            assertEquals(first.get(1), ours.get(1));
            assertEquals(first.get(2), ours.get(2));
            for (String row : first.subList(3, first.size())) {
                assertTrue(ROW.matcher(row).matches(), "perf's row " + row);
            }
            // perf's first row of the workload's function, and ours, in the same columns
            assertEquals(column(first, "spin_step"), column(ours, "spin_step"));
        } finally {
            spin.destroyForcibly();
            spin.waitFor();
        }
    }

    /** The first whole screen (not the last, which a signal may cut) that shows {@code sym}. */
    private static List<String> withSymbol(List<List<String>> screens, String sym) {
        for (List<String> s : screens.subList(0, screens.size() - 1)) {
            if (column(s, sym) >= 0) {
                return s;
            }
        }
        throw new AssertionError("no whole screen shows " + sym + ": " + screens);
    }

    /** Where the symbol column starts in the screen's row of {@code sym}, or -1. */
    private static int column(List<String> screen, String sym) {
        for (String row : screen) {
            if (row.endsWith("] " + sym)) {
                return row.indexOf("] " + sym);
            }
        }
        return -1;
    }

    /** The browser on a terminal (tmux): rows, moving, the filter, q. */
    @Test
    void browserInATerminal() throws Exception {
        assumeTrue(Files.isExecutable(SPIN), SPIN + " not built");
        Process spin = new ProcessBuilder(SPIN.toString(), "60").start();
        Path script = tmp.resolve("top.sh");
        try (Tmux tmux = new Tmux("toptest")) {
            tmux.start("top", 120, 30, script, "exec " + String.join(" ", jperf("top", "-d", "1", "-p", Long.toString(spin.pid()))
                    .stream().map(a -> "'" + a + "'").toList()) + " 2>" + tmp.resolve("browser.err") + "\n");
            String pane = tmux.await("top", "spin_step");
            assertTrue(pane.lines().findFirst().orElse("").startsWith("   PerfTop:"), pane);
            assertTrue(pane.contains("keys: up/down j/k"), pane);
            tmux.keys("top", "j", "k", "Down", "Up");
            tmux.keys("top", "/");
            tmux.keys("top", "-l", "spin_st");
            tmux.await("top", "/spin_st");
            tmux.keys("top", "Enter");
            pane = tmux.await("top", "filter: spin_st");
            List<String> rows = pane.lines().filter(l -> l.contains("%  ") && !l.contains("PerfTop:")).toList();
            assertTrue(!rows.isEmpty(), pane);
            for (String r : rows) {
                assertTrue(r.contains("spin_st"), "a row the filter keeps: " + r + "\n" + pane);
            }
            tmux.keys("top", "q");
            assertTrue(tmux.ends("top"), "q did not end jperf top: " + Files.readString(tmp.resolve("browser.err")));
        } finally {
            spin.destroyForcibly();
            spin.waitFor();
        }
    }

    @Test
    void helpAndBadOptions() {
        Run h = Run.of("top", "-h");
        assertEquals(0, h.rc());
        assertTrue(h.out().contains("-z, --zero"), h.out());
        Run bad = Run.of("top", "--no-such-option");
        assertEquals(129, bad.rc());
        Run sort = Run.of("top", "--stdio", "-s", "nosuchkey");
        assertEquals(129, sort.rc(), sort.err());
        assertEquals(1, sort.err().lines().count(), sort.err());
    }
}
