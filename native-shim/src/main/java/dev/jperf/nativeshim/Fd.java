package dev.jperf.nativeshim;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;

/** read/write/flock/close of raw file descriptors (event fds, bpf fds, an inherited log fd). */
public final class Fd {
    private Fd() {}

    /** Reads up to {@code max} bytes (an event's counter values); returns them. */
    public static byte[] read(int fd, int max, String what) {
        Memory buf = new Memory(max);
        long n = LibC.read(fd, Pointer.nativeValue(buf), max);
        if (n < 0) {
            throw new NativeException("read(" + what + ")", Errno.last());
        }
        return buf.getByteArray(0, (int) n);
    }

    /** Writes all of {@code data} (an empty array: only checks the fd can be written), retrying partial writes. */
    public static void write(int fd, byte[] data, String what) {
        Memory buf = new Memory(Math.max(1, data.length));
        buf.write(0, data, 0, data.length);
        long done = 0;
        do {
            long n = LibC.write(fd, Pointer.nativeValue(buf) + done, data.length - done);
            if (n < 0) {
                int errno = Errno.last();
                if (errno == Errno.EINTR) {
                    continue;
                }
                throw new NativeException("write(" + what + ")", errno);
            }
            done += n;
        } while (done < data.length);
    }

    /**
     * Grows this process's fd table to hold fds up to {@code highestFd} now (dup2 onto it, then
     * close it); the table never shrinks. Growing it later, in a multi-threaded process, waits for
     * an RCU grace period (expand_fdtable: synchronize_rcu, milliseconds) inside whatever call
     * opened the fd - fatal for a thread racing a program's unload.
     */
    public static void growTable(int highestFd) {
        if (LibC.dup2(0, highestFd) < 0 && LibC.dup2(1, highestFd) < 0) {
            throw new NativeException("dup2(0, " + highestFd + ")", Errno.last());
        }
        LibC.close(highestFd);
    }

    /** __NR_openat on x86-64, AT_FDCWD, O_CLOEXEC. */
    static final long SYS_OPENAT = 257;
    private static final long AT_FDCWD = -100;
    private static final long O_CLOEXEC = 0x80000;

    /**
     * open(path, O_RDONLY | O_CLOEXEC): an fd, or -errno. For files read with poll (a pipe of the
     * kernel's, e.g. trace_pipe), which a Java stream would read with no way to stop it.
     */
    public static int openRead(String path) {
        return open(path, O_RDONLY | (int) O_CLOEXEC);
    }

    /** __NR_flock on x86-64 */
    static final long SYS_FLOCK = 73;
    public static final int LOCK_EX = 2;
    public static final int LOCK_UN = 8;

    /** flock(2) on {@code fd} (bpf objects too: their files are anon inodes); 0 or -errno. */
    public static int flock(int fd, int operation) {
        return LibC.syscall(SYS_FLOCK, fd, operation, 0, 0, 0) < 0 ? -Errno.last() : 0;
    }

    /** Closes {@code fd}; errors are ignored (nothing useful can be done about them). */
    public static void close(int fd) {
        if (fd >= 0) {
            LibC.close(fd);
        }
    }

    public static final int O_RDONLY = 0;

    /** open(path, flags): the fd, or -errno (a cgroup directory for bpf(2) attach and query). */
    public static int open(String path, int flags) {
        byte[] b = path.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Memory p = new Memory(b.length + 1);
        p.write(0, b, 0, b.length);
        p.setByte(b.length, (byte) 0);
        long fd = LibC.syscall(SYS_OPENAT, AT_FDCWD, Pointer.nativeValue(p), flags, 0, 0);
        return fd < 0 ? -Errno.last() : (int) fd;
    }

}
