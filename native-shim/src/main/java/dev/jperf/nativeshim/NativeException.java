package dev.jperf.nativeshim;

/**
 * A system call failed. The message names what was attempted and why it failed, e.g.
 * {@code perf_event_open(cpu-clock on cpu 0) failed: Permission denied (EACCES)}.
 */
public final class NativeException extends RuntimeException {
    private final String operation;
    private final int errno;

    public NativeException(String operation, int errno) {
        super(operation + " failed: " + Errno.describe(errno));
        this.operation = operation;
        this.errno = errno;
    }

    /** What was attempted, without the reason. */
    public String operation() {
        return operation;
    }

    /** The errno value (see {@link Errno} for named constants). */
    public int errno() {
        return errno;
    }
}
