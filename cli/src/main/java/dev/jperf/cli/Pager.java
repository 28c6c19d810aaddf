package dev.jperf.cli;

import dev.jperf.nativeshim.Terminal;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * perf's pager (tools/lib/subcmd/pager.c setup_pager): a command's output to a terminal goes
 * through $PERF_PAGER, else $PAGER, else /usr/bin/pager, else /usr/bin/less, run by
 * {@code sh -c}, LESS=FRSX unless set; none when stdout is not a terminal, when the pager is
 * empty or "cat", or after perf's global --no-pager (which sets PERF_PAGER to cat).
 */
final class Pager implements AutoCloseable {
    /** perf --no-pager. */
    static boolean disabled;

    private final Process process;
    private final PrintStream out;
    private final PrintStream savedOut;
    private final PrintStream savedErr;

    private Pager(Process process, boolean err) {
        this.process = process;
        this.out = new PrintStream(process.getOutputStream(), false);
        this.savedOut = System.out;
        this.savedErr = System.err;
        System.setOut(out);
        if (err) {
            // perf's setup_pager: stderr into the pager too when it is the terminal
            System.setErr(out);
        }
    }

    /** The pager perf would run, or null for none. */
    static String command() {
        String pager = disabled ? "cat" : System.getenv("PERF_PAGER");
        if (pager == null) {
            pager = System.getenv("PAGER");
        }
        if (pager == null && Files.isExecutable(Path.of("/usr/bin/pager"))) {
            pager = "/usr/bin/pager";
        }
        if (pager == null && Files.isExecutable(Path.of("/usr/bin/less"))) {
            pager = "/usr/bin/less";
        }
        return pager == null || pager.isEmpty() || pager.equals("cat") ? null : pager;
    }

    /** Starts the pager when stdout is a terminal and one is set; null otherwise (stdout as it is). */
    static Pager start() {
        if (!Terminal.isTerminal(1)) {
            return null;
        }
        String pager = command();
        if (pager == null) {
            return null;
        }
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", pager).redirectOutput(ProcessBuilder.Redirect.INHERIT)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().putIfAbsent("LESS", "FRSX");
        try {
            return new Pager(pb.start(), Terminal.isTerminal(2));
        } catch (IOException e) {
            // perf goes on without its pager when it cannot start one
            return null;
        }
    }

    /** Ends the output and waits for the pager to exit (the user leaving it). */
    @Override
    public void close() {
        out.flush();
        out.close();
        System.setOut(savedOut);
        System.setErr(savedErr);
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
