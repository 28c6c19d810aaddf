package dev.jperf.nativeshim;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;

/** read/close of raw file descriptors (event fds, bpf fds). */
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

    /** Closes {@code fd}; errors are ignored (nothing useful can be done about them). */
    public static void close(int fd) {
        if (fd >= 0) {
            LibC.close(fd);
        }
    }
}
