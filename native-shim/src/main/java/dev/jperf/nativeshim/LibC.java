package dev.jperf.nativeshim;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;

/**
 * libc entry points, direct-mapped (one JNI hop, no reflection per call). Every pointer is passed
 * as a {@code long} address and every variadic argument as a {@code long}, so the upper register
 * half is defined (java-stack.md §5). errno is read by the callers with
 * {@link Native#getLastError()} only when the result is -1.
 */
final class LibC {
    static {
        Native.register(LibC.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
    }

    private LibC() {}

    static native long syscall(long number, long a1, long a2, long a3, long a4, long a5);

    static native int ioctl(int fd, long request, long arg);

    static native long mmap(long addr, long length, int prot, int flags, int fd, long offset);

    static native int munmap(long addr, long length);

    static native int poll(long fds, long nfds, int timeoutMs);

    static native long read(int fd, long buf, long count);

    static native long write(int fd, long buf, long count);

    static native int close(int fd);

    static native int dup2(int oldfd, int newfd);

    static native int kill(int pid, int sig);

    static native String strerror(int errnum);
}
