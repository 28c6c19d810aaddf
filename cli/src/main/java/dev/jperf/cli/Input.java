package dev.jperf.cli;

import dev.jperf.format.PerfDataException;
import dev.jperf.format.PerfDataFile;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** The input of the reading commands ({@code -i}), by perf's rules. */
final class Input {
    static final String STDIN = "-";
    /** The help line of -i/--input, perf's rule for the default. */
    static final String HELP = "input file name (default: perf.data, or stdin when it is a pipe; - for stdin)";

    private Input() {
    }

    /**
     * perf's rule: without {@code -i}, read a pipe on stdin in pipe mode, else {@code perf.data};
     * {@code -i -} reads stdin.
     */
    static String name(String given) {
        if (given != null && !given.isEmpty()) {
            return given;
        }
        return isPipe(0) ? STDIN : "perf.data";
    }

    /**
     * The input opened, with the progress line on stderr while its records are read (a terminal only).
     * One that cannot be opened is an {@link Unreadable}: perf's reading commands exit 255 then.
     */
    static PerfDataFile open(String given) {
        String name = name(given);
        PerfDataFile f;
        try {
            f = STDIN.equals(name) ? PerfDataFile.open("stdin", System.in) : PerfDataFile.open(Path.of(name));
        } catch (PerfDataException e) {
            throw new Unreadable(e);
        }
        f.onProgress(StderrProgress.ifTerminal());
        return f;
    }

    /**
     * {@link #open(String)} after perf's check of the owner (perf_data's open_file_read):
     * a file neither root's nor the user's is refused unless {@code force} (-f/--force).
     */
    static PerfDataFile open(String given, boolean force) {
        String name = name(given);
        if (!force && !STDIN.equals(name)) {
            try {
                Path p = Path.of(name);
                int owner = (Integer) Files.getAttribute(p, "unix:uid");
                // /proc/self belongs to the process's effective user
                int self = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
                if (owner != 0 && owner != self && Files.isRegularFile(p)) {
                    throw new Unreadable(new PerfDataException("File " + name
                            + " not owned by current user or root (use -f to override)"));
                }
            } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
                // a file that cannot be looked at is refused by the open itself, with its reason
            }
        }
        return open(given);
    }

    /**
     * An input perf.data that cannot be opened (missing, unreadable, empty, not perf.data): perf's
     * perf_session__new fails and its commands return -1, exit code 255.
     */
    static final class Unreadable extends RuntimeException {
        static final int EXIT_CODE = 255;

        Unreadable(PerfDataException cause) {
            super(cause.getMessage(), cause);
        }
    }

    /** Whether file descriptor {@code fd} (0 stdin, 1 stdout) is a pipe: perf's rules of pipe mode. */
    static boolean isPipe(int fd) {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString().startsWith("pipe:");
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** The problems met while reading, one line each. */
    static void printWarnings(PerfDataFile f, PrintStream err) {
        for (String w : f.warnings()) {
            err.println("warning: " + w);
        }
        err.flush();
    }

    /** stdout with a large buffer (the reading commands print millions of lines); flush, do not close. */
    static PrintStream stdout() {
        return new PrintStream(new BufferedOutputStream(System.out, 1 << 16), false);
    }
}
