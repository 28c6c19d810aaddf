package dev.jperf.nativeshim;

import com.sun.jna.Native;

/** errno values as the kernel names them (x86-64 / generic), and turning them into messages. */
public final class Errno {
    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int ESRCH = 3;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int ENXIO = 6;
    public static final int E2BIG = 7;
    public static final int EBADF = 9;
    public static final int ECHILD = 10;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EACCES = 13;
    public static final int EFAULT = 14;
    public static final int EBUSY = 16;
    public static final int EEXIST = 17;
    public static final int ENODEV = 19;
    public static final int EINVAL = 22;
    public static final int EMFILE = 24;
    public static final int ENOSPC = 28;
    public static final int ERANGE = 34;
    public static final int ENOSYS = 38;
    public static final int EOPNOTSUPP = 95;
    public static final int EUCLEAN = 117;

    private static final String[] NAMES = new String[525];

    static {
        String[] names = {"", "EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG", "ENOEXEC",
            "EBADF", "ECHILD", "EAGAIN", "ENOMEM", "EACCES", "EFAULT", "ENOTBLK", "EBUSY", "EEXIST",
            "EXDEV", "ENODEV", "ENOTDIR", "EISDIR", "EINVAL", "ENFILE", "EMFILE", "ENOTTY", "ETXTBSY",
            "EFBIG", "ENOSPC", "ESPIPE", "EROFS", "EMLINK", "EPIPE", "EDOM", "ERANGE", "EDEADLK",
            "ENAMETOOLONG", "ENOLCK", "ENOSYS"};
        System.arraycopy(names, 0, NAMES, 0, names.length);
        NAMES[95] = "EOPNOTSUPP";
        NAMES[117] = "EUCLEAN";
        NAMES[524] = "ENOTSUPP"; // kernel-internal, leaks out of bpf(2)
    }

    private Errno() {}

    /** errno of the calling thread's last native call; valid only right after a call that returned -1. */
    public static int last() {
        return Native.getLastError();
    }

    /** The errno's name as the kernel spells it ("EACCES"), or "errno N". */
    public static String name(int errno) {
        return errno > 0 && errno < NAMES.length && NAMES[errno] != null ? NAMES[errno] : "errno " + errno;
    }

    /** strerror's text ("Permission denied"), or the name when libc has none. */
    public static String text(int errno) {
        String text;
        try {
            text = LibC.strerror(errno);
        } catch (UnsatisfiedLinkError e) {
            text = null;
        }
        return text == null || text.isEmpty() ? name(errno) : text;
    }

    /** "Permission denied (EACCES)". */
    public static String describe(int errno) {
        String text = text(errno);
        String name = name(errno);
        return text.equals(name) ? name : text + " (" + name + ")";
    }

    /** The exception for a call that just returned -1. */
    static NativeException fail(String operation) {
        return new NativeException(operation, last());
    }
}
