package dev.jperf.cli;

import dev.jperf.recorder.RecordException;
import dev.jperf.recorder.stat.StatException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;

/**
 * Turns any failure into one line on stderr and a non-zero exit. A stack trace is printed only
 * with JPERF_DEBUG set, for us, never for users.
 */
final class Failure {
    private Failure() {
    }

    /**
     * Prints {@code jperf <command>: <what went wrong>} and returns the exit code: 1, or perf's for
     * the same failure where a {@link RecordException} or {@link StatException} carries it, or an
     * input that cannot be opened ({@link Input.Unreadable}).
     */
    static int report(String command, Exception ex, PrintStream err) {
        if (System.getenv("JPERF_DEBUG") != null) {
            ex.printStackTrace(err);
        }
        err.println("jperf " + command + ": " + describe(ex));
        err.flush();
        if (ex instanceof Input.Unreadable) {
            return Input.Unreadable.EXIT_CODE;
        }
        return ex instanceof RecordException r ? r.exitCode() : ex instanceof StatException s ? s.exitCode() : 1;
    }

    static String describe(Throwable ex) {
        Throwable t = ex;
        if (t instanceof UncheckedIOException && t.getCause() != null) {
            t = t.getCause();
        }
        String msg = t.getMessage();
        if (t instanceof IOException && t.getClass() != IOException.class) {
            String kind = t.getClass().getSimpleName().replaceAll("Exception$", "")
                    .replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase();
            return msg == null ? kind : msg + ": " + kind;
        }
        if (msg == null || msg.isBlank()) {
            return t.getClass().getSimpleName();
        }
        return msg;
    }
}
