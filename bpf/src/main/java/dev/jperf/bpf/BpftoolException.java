package dev.jperf.bpf;

/**
 * What bpftool reports with p_err ("get map by id (7): No such file or directory"): one line on
 * stderr and, with {@code --json}, bpftool's {@code {"error": ...}} object on stdout unless
 * {@link #onStdout()} says the output already holds what bpftool prints there.
 */
public final class BpftoolException extends RuntimeException {
    private final boolean onStdout;
    private final int status;

    public BpftoolException(String message) {
        this(message, false);
    }

    public BpftoolException(String message, boolean onStdout) {
        this(message, onStdout, -1);
    }

    /** {@code status}: what bpftool's command returned (-1, or a negative errno), its exit code's source. */
    public BpftoolException(String message, boolean onStdout, int status) {
        super(message);
        this.onStdout = onStdout;
        this.status = status;
    }

    /** What bpftool's command returned: -1, or a negative errno. */
    public int status() {
        return status;
    }

    /** bpftool's exit code for this failure: its command's return value as a byte (-1 is 255). */
    public int exitCode() {
        return status & 0xff;
    }

    /** True when stdout already carries what bpftool prints for this error. */
    public boolean onStdout() {
        return onStdout;
    }
}
