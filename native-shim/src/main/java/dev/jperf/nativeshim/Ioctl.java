package dev.jperf.nativeshim;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;

/** The perf event ioctls (ring-buffer.md §6). Arguments go as 64-bit values: a 32-bit -1 is EBADF. */
public final class Ioctl {
    public static final long PERF_EVENT_IOC_ENABLE = 0x2400;
    public static final long PERF_EVENT_IOC_DISABLE = 0x2401;
    public static final long PERF_EVENT_IOC_REFRESH = 0x2402;
    public static final long PERF_EVENT_IOC_RESET = 0x2403;
    public static final long PERF_EVENT_IOC_PERIOD = 0x40082404L;
    public static final long PERF_EVENT_IOC_SET_OUTPUT = 0x2405;
    public static final long PERF_EVENT_IOC_SET_FILTER = 0x40082406L;
    public static final long PERF_EVENT_IOC_ID = 0x80082407L;
    public static final long PERF_EVENT_IOC_SET_BPF = 0x40042408L;
    public static final long PERF_EVENT_IOC_PAUSE_OUTPUT = 0x40042409L;
    /** Argument of ENABLE/DISABLE/RESET: apply to the whole group. */
    public static final long PERF_IOC_FLAG_GROUP = 1;

    private Ioctl() {}

    public static void enable(int fd) {
        call(fd, PERF_EVENT_IOC_ENABLE, 0, "PERF_EVENT_IOC_ENABLE");
    }

    public static void disable(int fd) {
        call(fd, PERF_EVENT_IOC_DISABLE, 0, "PERF_EVENT_IOC_DISABLE");
    }

    public static void reset(int fd) {
        call(fd, PERF_EVENT_IOC_RESET, 0, "PERF_EVENT_IOC_RESET");
    }

    /** Sends {@code fd}'s records into {@code targetFd}'s ring buffer; -1 detaches. */
    public static void setOutput(int fd, int targetFd) {
        call(fd, PERF_EVENT_IOC_SET_OUTPUT, targetFd, "PERF_EVENT_IOC_SET_OUTPUT to fd " + targetFd);
    }

    /** Attaches BPF program {@code progFd} to a tracepoint/kprobe event. */
    public static void setBpf(int fd, int progFd) {
        call(fd, PERF_EVENT_IOC_SET_BPF, progFd, "PERF_EVENT_IOC_SET_BPF prog fd " + progFd);
    }

    public static void pauseOutput(int fd, boolean pause) {
        call(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, pause ? 1 : 0, "PERF_EVENT_IOC_PAUSE_OUTPUT");
    }

    /** The event id, as it appears in sample ids and in perf.data's attr ids. */
    public static long id(int fd) {
        Memory out = new Memory(8);
        out.setLong(0, 0);
        call(fd, PERF_EVENT_IOC_ID, Pointer.nativeValue(out), "PERF_EVENT_IOC_ID");
        return out.getLong(0);
    }

    private static void call(int fd, long request, long arg, String what) {
        if (LibC.ioctl(fd, request, arg) < 0) {
            throw new NativeException("ioctl(fd " + fd + ", " + what + ")", Errno.last());
        }
    }
}
