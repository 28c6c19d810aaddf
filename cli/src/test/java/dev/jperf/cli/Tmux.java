package dev.jperf.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A private tmux server (its own socket) whose sessions are the terminals the browser tests type into. */
final class Tmux implements AutoCloseable {
    private final String socket;

    /** A server for this test; skipped when tmux is not installed. */
    Tmux(String name) throws Exception {
        socket = "jperf-" + name + "-" + ProcessHandle.current().pid();
        assumeTrue(run("-V") != null, "tmux is not installed");
    }

    /** tmux's output, or null when it failed. */
    String run(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("tmux", "-L", socket));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(10, TimeUnit.SECONDS);
        return p.exitValue() == 0 ? out : null;
    }

    /**
     * A session of {@code cols}x{@code rows} running {@code script} by /bin/sh (argv, not a shell
     * command line: an ordinary user's login shell may be nologin).
     */
    void start(String session, int cols, int rows, Path script, String text) throws Exception {
        Files.writeString(script, text);
        if (run("new-session", "-d", "-s", session, "-x", Integer.toString(cols), "-y", Integer.toString(rows),
                "/bin/sh", script.toString()) == null) {
            throw new AssertionError("tmux did not start " + script);
        }
    }

    void keys(String session, String... keys) throws Exception {
        List<String> args = new ArrayList<>(List.of("send-keys", "-t", session));
        args.addAll(List.of(keys));
        run(args.toArray(String[]::new));
    }

    /** The pane's text now. */
    String pane(String session) throws Exception {
        String p = run("capture-pane", "-p", "-t", session);
        return p == null ? "" : p;
    }

    /** Polls the pane until it shows {@code text} (40 s at most); the pane. */
    String await(String session, String text) throws Exception {
        String pane = "";
        for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(40); System.nanoTime() < end; Thread.sleep(300)) {
            pane = pane(session);
            if (pane.contains(text)) {
                return pane;
            }
        }
        throw new AssertionError("the pane never showed " + text + ":\n" + pane);
    }

    /** Polls the pane until it no longer shows {@code text} (40 s at most); the pane. */
    String awaitGone(String session, String text) throws Exception {
        String pane = "";
        for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(40); System.nanoTime() < end; Thread.sleep(300)) {
            pane = pane(session);
            if (!pane.contains(text)) {
                return pane;
            }
        }
        throw new AssertionError("the pane still shows " + text + ":\n" + pane);
    }

    /** Whether the session ended within 20 s. */
    boolean ends(String session) throws Exception {
        for (int i = 0; i < 100; i++) {
            if (run("has-session", "-t", session) == null) {
                return true;
            }
            Thread.sleep(200);
        }
        return false;
    }

    @Override
    public void close() throws Exception {
        run("kill-server");
    }
}
