package dev.jperf.loader;

/** A BPF object that cannot be opened or loaded: one line saying why (the object and what in it). */
public final class BpfObjectException extends Exception {
    private final int errno;

    /** A failure with no errno behind it. */
    public BpfObjectException(String message) {
        this(message, 0);
    }

    /** A failure the kernel (or libbpf's rules) gave {@code errno} for (positive). */
    public BpfObjectException(String message, int errno) {
        super(message);
        this.errno = errno;
    }

    /** The errno behind the failure (as libbpf would return it negated), 0 when none. */
    public int errno() {
        return errno;
    }
}
