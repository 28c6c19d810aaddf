package dev.jperf.bpf;

/**
 * What bpftool reports with p_err ("get map by id (7): No such file or directory"): one line on
 * stderr and, with {@code --json}, bpftool's {@code {"error": ...}} object on stdout unless
 * {@link #onStdout()} says the output already holds what bpftool prints there.
 */
public final class BpftoolException extends RuntimeException {
    /** bpftool's exit code for most failures: its commands return -1. */
    public static final int EXIT = 255;

    private final boolean onStdout;
    private final int exitCode;
    private final int status;
    private String info;
    private boolean usage;
    private boolean quiet;

    /**
     * bpftool's usage(): the command's help (on stderr, or {@code null} on stdout with {@code -j})
     * and exit 255, no error line.
     */
    public static BpftoolException usage() {
        BpftoolException e = new BpftoolException("usage");
        e.usage = true;
        return e;
    }

    /**
     * A failure bpftool reports with no p_err of its own (libbpf's debug lines say why, on
     * stderr before): exit 255, no {@code Error:} line or JSON object.
     */
    static BpftoolException quiet(String why) {
        BpftoolException e = new BpftoolException(why);
        e.quiet = true;
        return e;
    }

    /** {@link #quiet(String)} where the command returns {@code status} (a negative errno). */
    static BpftoolException quiet(String why, int status) {
        BpftoolException e = new BpftoolException(why, false, status);
        e.quiet = true;
        return e;
    }

    /** True for {@link #quiet(String)}. */
    public boolean isQuiet() {
        return quiet;
    }

    /** True for {@link #usage()}. */
    public boolean isUsage() {
        return usage;
    }

    public BpftoolException(String message) {
        this(message, false);
    }

    public BpftoolException(String message, boolean onStdout) {
        this(message, onStdout, EXIT);
    }

    /**
     * With what bpftool's command returns for this failure: its exit code (1 for {@code link
     * detach}) or its negative return value (-1, a negative errno), which exits as a byte (-22 is 234).
     */
    public BpftoolException(String message, boolean onStdout, int status) {
        super(message);
        this.onStdout = onStdout;
        this.status = status;
        this.exitCode = status & 0xff;
    }

    /** What bpftool's command returned, as given: -1, a negative errno, or an exit code. */
    public int status() {
        return status;
    }

    /** p_info's lines bpftool prints on stderr after this error, without {@code -j} (null: none). */
    public String info() {
        return info;
    }

    /** This error with p_info's {@code lines} after it. */
    BpftoolException withInfo(String lines) {
        info = lines;
        return this;
    }

    /** What bpftool exits with after this error. */
    public int exitCode() {
        return exitCode;
    }

    /** True when stdout already carries what bpftool prints for this error. */
    public boolean onStdout() {
        return onStdout;
    }
}
