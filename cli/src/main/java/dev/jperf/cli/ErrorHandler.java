package dev.jperf.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import picocli.CommandLine;

/**
 * Turns any failure into one line on stderr and a non-zero exit. A stack trace is printed only
 * with JPERF_DEBUG set, for us, never for users.
 */
final class ErrorHandler implements CommandLine.IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception ex, CommandLine cl, CommandLine.ParseResult parsed) {
        if (System.getenv("JPERF_DEBUG") != null) {
            ex.printStackTrace();
        }
        cl.getErr().println("jperf " + cl.getCommandName() + ": " + describe(ex));
        cl.getErr().flush();
        return 1;
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
