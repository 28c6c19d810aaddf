package dev.jperf.nativeshim;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;

/**
 * eventfd(2): a counter that wakes poll(2) (POLLIN while it is not zero). A thread that sleeps in
 * poll over its own fds adds one to let another thread wake it at once, so its poll timeout can be
 * long (each wakeup costs CPU) without making a stop wait for it.
 */
public final class EventFd implements AutoCloseable {
    /** __NR_eventfd2 on x86-64. */
    static final long SYS_EVENTFD2 = 290;
    static final int EFD_CLOEXEC = 0x80000;

    private final int fd;
    private final Memory one = new Memory(8);

    public EventFd() {
        long r = LibC.syscall(SYS_EVENTFD2, 0, EFD_CLOEXEC, 0, 0, 0);
        if (r < 0) {
            throw new NativeException("eventfd", Errno.last());
        }
        fd = (int) r;
        one.setLong(0, 1);
    }

    public int fd() {
        return fd;
    }

    /** Adds one: a poll on the fd returns POLLIN from now on. */
    public void signal() {
        if (LibC.write(fd, Pointer.nativeValue(one), 8) != 8) {
            throw new NativeException("write(eventfd)", Errno.last());
        }
    }

    @Override
    public void close() {
        Fd.close(fd);
    }
}
