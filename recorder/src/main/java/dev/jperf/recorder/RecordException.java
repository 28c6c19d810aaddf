package dev.jperf.recorder;

/** A recording problem the user must act on; the message is the one line to print. */
public final class RecordException extends RuntimeException {
    /** perf record's exit code when it cannot open its events (-1 from __cmd_record). */
    public static final int OPEN_FAILED = 255;

    private final int exitCode;

    public RecordException(String message) {
        this(message, null, 1);
    }

    public RecordException(String message, Throwable cause) {
        this(message, cause, 1);
    }

    public RecordException(String message, Throwable cause, int exitCode) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /** The exit code jperf record ends with, as perf record's for the same failure. */
    public int exitCode() {
        return exitCode;
    }
}
