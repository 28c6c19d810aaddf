package dev.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.jperf.recorder.stat.BpfTop;
import dev.jperf.samples.RunCounter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code jperf bpf top}: headless ({@code --once --json}, tables), programs loading and unloading
 * while it runs, and the live view in a real terminal (tmux).
 */
class BpfTopTest {
    /** Makes syscalls (each one runs the sys_enter program) until stopped. */
    private static Thread syscalls(AtomicBoolean stop) {
        Thread t = new Thread(() -> {
            while (!stop.get()) {
                Files.exists(Path.of("/proc/self/jperf-no-such-file"));
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

    @Test
    void onceJsonListsEveryProgramWithWhatItCost() throws Exception {
        Privilege.assumeBpf();
        AtomicBoolean stop = new AtomicBoolean();
        try (RunCounter c = RunCounter.attach()) {
            Thread load = syscalls(stop);
            long before = c.runs();
            Run r = Run.of("bpf", "top", "--once", "--json", "-d", "0.5");
            long mapRuns = c.runs() - before;
            stop.set(true);
            load.join();
            assertEquals(0, r.rc(), r.err());
            List<String> lines = r.out().lines().toList();
            assertEquals(1, lines.size(), r.out());
            Matcher m = Pattern.compile("\\{\"id\": " + c.id() + ", \"type\": \"raw_tracepoint\", \"name\": \""
                    + RunCounter.NAME + "\", \"run_cnt\": (\\d+), \"run_time_ns\": (\\d+), \"runs_per_sec\": ([0-9.]+), "
                    + "\"avg_ns_per_run\": ([0-9.]+), \"cpu_percent\": ([0-9.]+)\\}").matcher(lines.get(0));
            assertTrue(m.find(), lines.get(0));
            long runs = Long.parseLong(m.group(1));
            long ns = Long.parseLong(m.group(2));
            // its window lies inside ours: at most what the map counted, and most of it
            assertTrue(runs > 1000 && runs <= mapRuns, runs + " runs, the map counted " + mapRuns);
            assertEquals((double) ns / runs, Double.parseDouble(m.group(4)), 0.01);
            Matcher interval = Pattern.compile("\"interval_s\": ([0-9.]+)").matcher(lines.get(0));
            assertTrue(interval.find());
            double seconds = Double.parseDouble(interval.group(1));
            // the interval as measured (a busy machine stretches it); the rates must be of that interval
            assertTrue(seconds >= 0.45 && seconds < 5, "interval " + seconds);
            assertEquals(runs / seconds, Double.parseDouble(m.group(3)), 0.01 * runs / seconds);
            assertEquals(100 * ns / (seconds * 1e9), Double.parseDouble(m.group(5)), 0.001);
        }
        Run table = Run.of("bpf", "top", "--once", "-d", "0.2", "-s", "id");
        assertTrue(table.out().contains("     ID TYPE             NAME "), table.out());
        assertTrue(table.out().contains("sort: id"), table.out());
    }

    @Test
    void helpAndBadCommandLines() {
        Run h = Run.of("bpf", "top", "-h");
        assertEquals(0, h.rc());
        assertTrue(h.out().startsWith("\n Usage: jperf bpf top [<options>]\n"), h.out());
        assertTrue(h.out().contains("    -d, --delay <seconds>"), h.out());
        Run r = Run.of("bpf", "top", "-s", "size");
        assertEquals(129, r.rc());
        assertEquals("jperf bpf top: unknown sort key 'size' (cpu, runs, avg, id, name, type) (jperf bpf top -h lists the"
                + " options)\n", r.err());
        r = Run.of("bpf", "top", "-d", "0");
        assertEquals(129, r.rc());
        assertEquals(1, r.err().lines().count(), r.err());
        r = Run.of("bpf", "top", "extra");
        assertEquals(129, r.rc());
        assertEquals(1, r.err().lines().count(), r.err());
    }

    @Test
    void programsThatLoadAndUnloadComeAndGo() throws Exception {
        Privilege.assumeBpf();
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        BpfTop top = new BpfTop(new BpfTop.Options(300_000_000L, BpfTop.Sort.ID, true, 5, false),
                new PrintStream(buf, true, StandardCharsets.UTF_8));
        RunCounter first = RunCounter.attach();
        int firstId = first.id();
        RunCounter second = null;
        Thread t = new Thread(() -> {
            try {
                top.run(new ByteArrayInputStream(new byte[0]));
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        try {
            t.start();
            // the first update is out (it lists the first program): then swap the programs
            for (int i = 0; i < 200 && buf.size() == 0; i++) {
                Thread.sleep(25);
            }
            first.close();
            first = null;
            second = RunCounter.attach();
            t.join(10_000);
        } finally {
            if (first != null) {
                first.close();
            }
            if (second != null) {
                second.close();
            }
        }
        List<String> lines = buf.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(5, lines.size(), lines.toString());
        String idFirst = "{\"id\": " + firstId + ", ";
        String idSecond = "{\"id\": " + second.id() + ", ";
        assertTrue(lines.get(0).contains(idFirst), lines.get(0));
        assertFalse(lines.get(0).contains(idSecond), lines.get(0));
        assertFalse(lines.get(4).contains(idFirst), lines.get(4));
        assertTrue(lines.get(4).contains(idSecond), lines.get(4));
    }

    /** The tmux server's socket: the test's own, never the user's default server. */
    @org.junit.jupiter.api.io.TempDir
    static java.nio.file.Path socketDir;
    private static java.nio.file.Path socket;

    @Test
    void liveViewInATerminal() throws Exception {
        Privilege.assumeBpf();
        socket = socketDir.resolve("tmux.sock");
        assumeTrue(StatTest.exec("sh", "-c", "command -v tmux").rc() == 0, "tmux is not installed (apt-get install tmux)");
        String session = "jperf-top-" + ProcessHandle.current().pid();
        List<String> java = new ArrayList<>(StatTest.jperf(List.of("env", "TERM=xterm"), "bpf", "top", "-d", "0.3"));
        String command = String.join(" ", java.stream().map(a -> "'" + a + "'").toList());
        try (RunCounter c = RunCounter.attach()) {
            assertEquals(0, StatTest.exec("tmux", "-S", socket.toString(), "new-session", "-d", "-s", session, "-x", "160", "-y", "40", command).rc());
            String screen = awaitScreen(session, "sort: cpu");
            assertTrue(screen.contains("jperf bpf top - "), screen);
            assertTrue(screen.contains("     ID TYPE             NAME "), screen);
            awaitScreen(session, RunCounter.NAME);
            StatTest.exec("tmux", "-S", socket.toString(), "send-keys", "-t", session, "n");
            screen = awaitScreen(session, "sort: name");
            StatTest.exec("tmux", "-S", socket.toString(), "send-keys", "-t", session, "q");
            boolean ended = false;
            for (int i = 0; i < 100 && !ended; i++) {
                Thread.sleep(100);
                ended = StatTest.exec("tmux", "-S", socket.toString(), "has-session", "-t", session).rc() != 0;
            }
            assertTrue(ended, "q did not quit: " + screen);
        } finally {
            StatTest.exec("tmux", "-S", socket.toString(), "kill-session", "-t", session);
        }
    }

    private static String awaitScreen(String session, String text) throws Exception {
        String screen = "";
        for (int i = 0; i < 150; i++) {
            screen = StatTest.exec("tmux", "-S", socket.toString(), "capture-pane", "-p", "-t", session).out();
            if (screen.contains(text)) {
                return screen;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("'" + text + "' never shown:\n" + screen);
    }
}
