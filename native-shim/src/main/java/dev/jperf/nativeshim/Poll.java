package dev.jperf.nativeshim;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;

/** poll(2) over a fixed set of fds (struct pollfd: int fd, short events, short revents). */
public final class Poll {
    public static final short POLLIN = 0x1;
    public static final short POLLERR = 0x8;
    public static final short POLLHUP = 0x10;
    private static final int POLLFD_SIZE = 8;

    private final Memory fds;
    /** The array's address, taken once: the recorder polls ~20 times a second. */
    private final long address;
    private final int count;

    public Poll(int[] fileDescriptors, short events) {
        count = fileDescriptors.length;
        fds = new Memory(Math.max(1, count) * (long) POLLFD_SIZE);
        fds.clear();
        for (int i = 0; i < count; i++) {
            fds.setInt((long) i * POLLFD_SIZE, fileDescriptors[i]);
            fds.setShort((long) i * POLLFD_SIZE + 4, events);
        }
        address = Pointer.nativeValue(fds);
    }

    /** Waits up to {@code timeoutMs} (-1 forever); returns how many fds are ready (0 on timeout or EINTR). */
    public int poll(int timeoutMs) {
        int n = LibC.poll(address, count, timeoutMs);
        if (n < 0) {
            int errno = Errno.last();
            if (errno == Errno.EINTR) {
                return 0;
            }
            throw new NativeException("poll(" + count + " fds)", errno);
        }
        return n;
    }

    /** revents of entry {@code i} after the last {@link #poll}. */
    public short revents(int i) {
        return fds.getShort((long) i * POLLFD_SIZE + 6);
    }
}
