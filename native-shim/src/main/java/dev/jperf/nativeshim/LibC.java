package dev.jperf.nativeshim;

import com.sun.jna.Function;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;

/**
 * libc entry points, called through JNA {@link Function}s. Not direct mapping
 * ({@code Native.register}): registering eleven natives built JNA's FFI type structures and
 * reflected over every method, ~15 ms of each recording's start, while the calls themselves are
 * few (a bpf(2) per program pinned, a poll per pass of the rings): a boxed argument array per call
 * costs less. Every pointer is passed as a {@code long} address and every variadic argument as a
 * {@code long}, so the upper register half is defined (java-stack.md §5). errno is read by the
 * callers with {@link Native#getLastError()} only when the result is -1.
 */
final class LibC {
    private static final NativeLibrary C = NativeLibrary.getInstance(Platform.C_LIBRARY_NAME);
    private static final Function SYSCALL = C.getFunction("syscall");
    private static final Function IOCTL = C.getFunction("ioctl");
    private static final Function MMAP = C.getFunction("mmap");
    private static final Function MUNMAP = C.getFunction("munmap");
    private static final Function POLL = C.getFunction("poll");
    private static final Function READ = C.getFunction("read");
    private static final Function WRITE = C.getFunction("write");
    private static final Function CLOSE = C.getFunction("close");
    private static final Function DUP2 = C.getFunction("dup2");
    private static final Function KILL = C.getFunction("kill");
    private static final Function STRERROR = C.getFunction("strerror");
    private static final Function GETRUSAGE = C.getFunction("getrusage");
    private static final Function TCGETATTR = C.getFunction("tcgetattr");
    private static final Function TCSETATTR = C.getFunction("tcsetattr");
    private static final Function ISATTY = C.getFunction("isatty");

    private LibC() {}

    static long syscall(long number, long a1, long a2, long a3, long a4, long a5) {
        return SYSCALL.invokeLong(new Object[] {number, a1, a2, a3, a4, a5});
    }

    static int ioctl(int fd, long request, long arg) {
        return IOCTL.invokeInt(new Object[] {fd, request, arg});
    }

    static long mmap(long addr, long length, int prot, int flags, int fd, long offset) {
        return MMAP.invokeLong(new Object[] {addr, length, prot, flags, fd, offset});
    }

    static int munmap(long addr, long length) {
        return MUNMAP.invokeInt(new Object[] {addr, length});
    }

    static int poll(long fds, long nfds, int timeoutMs) {
        return POLL.invokeInt(new Object[] {fds, nfds, timeoutMs});
    }

    static long read(int fd, long buf, long count) {
        return READ.invokeLong(new Object[] {fd, buf, count});
    }

    static long write(int fd, long buf, long count) {
        return WRITE.invokeLong(new Object[] {fd, buf, count});
    }

    static int close(int fd) {
        return CLOSE.invokeInt(new Object[] {fd});
    }

    static int dup2(int oldfd, int newfd) {
        return DUP2.invokeInt(new Object[] {oldfd, newfd});
    }

    static int kill(int pid, int sig) {
        return KILL.invokeInt(new Object[] {pid, sig});
    }

    static int getrusage(int who, long usage) {
        return GETRUSAGE.invokeInt(new Object[] {who, usage});
    }

    static int tcgetattr(int fd, long termios) {
        return TCGETATTR.invokeInt(new Object[] {fd, termios});
    }

    static int tcsetattr(int fd, int action, long termios) {
        return TCSETATTR.invokeInt(new Object[] {fd, action, termios});
    }

    static int isatty(int fd) {
        return ISATTY.invokeInt(new Object[] {fd});
    }

    static String strerror(int errnum) {
        return STRERROR.invokeString(new Object[] {errnum}, false);
    }
}
