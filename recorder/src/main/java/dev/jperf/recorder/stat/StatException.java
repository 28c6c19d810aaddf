package dev.jperf.recorder.stat;

import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.recorder.Privileges;

/** A counting problem the user must act on; the message is the one line to print. */
public final class StatException extends RuntimeException {
    public StatException(String message) {
        super(message);
    }

    public StatException(String message, Throwable cause) {
        super(message, cause);
    }

    /** An event that could not be opened, in words a user can act on. */
    static StatException of(NativeException e, String event, int firstThread, int threads) {
        int errno = e.errno();
        if (errno == Errno.EACCES || errno == Errno.EPERM) {
            return new StatException(Privileges.noPermission(event, firstThread, threads), e);
        }
        if (errno == Errno.EMFILE) {
            return new StatException("too many open files for the events: raise the limit with 'ulimit -n' ("
                    + e.getMessage() + ")", e);
        }
        if (errno == Errno.ESRCH) {
            return new StatException("no such process or thread (" + e.getMessage() + ")", e);
        }
        return new StatException(e.getMessage(), e);
    }
}
