package dev.jperf.cli.logging;

import java.io.PrintStream;
import java.text.MessageFormat;

/**
 * java.util.logging's Logger as the bundled libraries call it: WARNING and SEVERE become one line on
 * stderr ({@code jperf: warning: <logger>: <message>[: <cause>]}), FINE and INFO go nowhere (the JDK's
 * default configuration shows INFO too; jperf's output is perf's, and JNA's and protobuf's INFO
 * lines are about their own set-up).
 */
public final class Logger {
    private final String name;
    private final PrintStream out;

    Logger(String name, PrintStream out) {
        this.name = name;
        this.out = out;
    }

    public static Logger getLogger(String name) {
        return new Logger(name, System.err);
    }

    public boolean isLoggable(Level level) {
        return level.intValue() >= Level.WARNING.intValue();
    }

    public void log(Level level, String msg) {
        log(level, msg, (Throwable) null);
    }

    public void log(Level level, String msg, Object param) {
        if (isLoggable(level)) {
            log(level, MessageFormat.format(msg, param), (Throwable) null);
        }
    }

    public void log(Level level, String msg, Object[] params) {
        if (isLoggable(level)) {
            log(level, params == null ? msg : MessageFormat.format(msg, params), (Throwable) null);
        }
    }

    public void log(Level level, String msg, Throwable thrown) {
        if (!isLoggable(level)) {
            return;
        }
        String line = "jperf: " + (level == Level.SEVERE ? "error: " : "warning: ") + name + ": " + msg;
        if (thrown != null) {
            line += ": " + (thrown.getMessage() != null ? thrown.getMessage() : thrown.getClass().getSimpleName());
        }
        out.println(line);
    }

    public void warning(String msg) {
        log(Level.WARNING, msg);
    }
}
