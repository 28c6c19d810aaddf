package dev.jperf.loader;

/** errno values the open phase reports (asm-generic/errno-base.h, errno.h); libbpf's own LIBBPF_ERRNO__* as libbpf numbers them. */
final class Errnos {
    static final int EPERM = 1;
    static final int ENOENT = 2;
    static final int ESRCH = 3;
    static final int E2BIG = 7;
    static final int EINVAL = 22;
    static final int ENOSPC = 28;
    static final int ERANGE = 34;
    static final int EOPNOTSUPP = 95;
    static final int EUCLEAN = 117;

    private Errnos() {
    }
}
