package dev.jperf.bpf;

/**
 * What bpftool reports with p_err ("get map by id (7): No such file or directory"): one line on
 * stderr and, with {@code --json}, bpftool's {@code {"error": ...}} object on stdout unless
 * {@link #onStdout()} says the output already holds what bpftool prints there.
 */
public final class BpftoolException extends RuntimeException {
    private final boolean onStdout;

    public BpftoolException(String message) {
        this(message, false);
    }

    public BpftoolException(String message, boolean onStdout) {
        super(message);
        this.onStdout = onStdout;
    }

    /** True when stdout already carries what bpftool prints for this error. */
    public boolean onStdout() {
        return onStdout;
    }
}
