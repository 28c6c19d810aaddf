package dev.jperf.cli.options;

/** The command line itself is wrong (unknown option, missing value...): perf exits 129 for these. */
public final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
