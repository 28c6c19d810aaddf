package dev.jperf.recorder;

/** A recording problem the user must act on; the message is the one line to print. */
public final class RecordException extends RuntimeException {
    public RecordException(String message) {
        super(message);
    }

    public RecordException(String message, Throwable cause) {
        super(message, cause);
    }
}
