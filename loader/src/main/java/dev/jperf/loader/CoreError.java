package dev.jperf.loader;

/**
 * A CO-RE step that cannot go on: the errno libbpf's relo_core returns (as a positive number)
 * and, for the steps that say more, what was wrong. {@link CoreRelocator} adds the program and
 * relocation it happened in.
 */
final class CoreError extends Exception {
    final int errno;

    CoreError(int errno) {
        this(errno, null);
    }

    CoreError(int errno, String detail) {
        super(detail, null, false, false);
        this.errno = errno;
    }

    /** As libbpf prints a failed step's result: the negative errno. */
    int code() {
        return -errno;
    }
}
