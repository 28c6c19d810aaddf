package dev.jperf.format;

/**
 * A perf.data file (or stream) that cannot be read. The message is one line naming the file and
 * the problem, ready to be shown to a user as it is.
 */
public final class PerfDataException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PerfDataException(String message) {
        super(message, null, false, false);
    }

    public PerfDataException(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
