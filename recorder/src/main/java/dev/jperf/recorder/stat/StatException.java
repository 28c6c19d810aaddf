package dev.jperf.recorder.stat;

import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.recorder.Privileges;
import dev.jperf.recorder.RecordException;

/** A counting problem the user must act on; the message is the one line to print. */
public final class StatException extends RuntimeException {
    private final int exitCode;

    public StatException(String message) {
        this(message, null, 1);
    }

    public StatException(String message, Throwable cause) {
        this(message, cause, 1);
    }

    private StatException(String message, Throwable cause, int exitCode) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /** The exit code jperf stat ends with: perf stat's 255 for an event it cannot open, else 1. */
    public int exitCode() {
        return exitCode;
    }

    /** A group whose leader the machine lacks (perf's "The cycles event is not supported."), exit code 255. */
    static StatException unsupportedLeader(String event) {
        return new StatException("The " + event + " event is not supported.", null, RecordException.OPEN_FAILED);
    }

    /** An event that could not be opened, in words a user can act on; exit code 255, as perf stat's. */
    static StatException of(NativeException e, String event, int firstThread, int threads) {
        int errno = e.errno();
        String message;
        if (errno == Errno.EACCES || errno == Errno.EPERM) {
            message = Privileges.noPermission(event, firstThread, threads);
        } else if (errno == Errno.EMFILE) {
            message = "too many open files for the events: raise the limit with 'ulimit -n' (" + e.getMessage() + ")";
        } else if (errno == Errno.ESRCH) {
            message = "no such process or thread (" + e.getMessage() + ")";
        } else {
            message = e.getMessage();
        }
        return new StatException(message, e, RecordException.OPEN_FAILED);
    }
}
