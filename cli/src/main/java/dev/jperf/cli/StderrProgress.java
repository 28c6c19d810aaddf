package dev.jperf.cli;

import dev.jperf.format.ReadProgress;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * perf's "Processing events..." line on stderr, while the records of a file are read: only when
 * stderr is a terminal and reading takes over a second.
 */
final class StderrProgress implements ReadProgress {
    private final long started = System.nanoTime();
    private final PrintStream err;
    private boolean shown;

    private StderrProgress(PrintStream err) {
        this.err = err;
    }

    /** The line on stderr when it is a terminal, else {@link ReadProgress#NONE}. */
    static ReadProgress ifTerminal() {
        try {
            String t = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            if (t.startsWith("/dev/pts/") || t.startsWith("/dev/tty")) {
                return new StderrProgress(System.err);
            }
        } catch (Exception e) {
            // no /proc or not a link: treat as not a terminal
        }
        return ReadProgress.NONE;
    }

    @Override
    public void update(long offset, long total) {
        if (System.nanoTime() - started < 1_000_000_000L) {
            return;
        }
        shown = true;
        err.printf("\rProcessing events... %3d%%", Math.min(100, offset * 100 / Math.max(total, 1)));
        err.flush();
    }

    @Override
    public void done() {
        if (shown) {
            err.print("\r\033[K");
            err.flush();
        }
    }
}
