package dev.jperf.nativeshim;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.nio.ByteBuffer;

/** perf_event_open(2). */
public final class PerfEventOpen {
    /** __NR_perf_event_open on x86-64. */
    static final long SYS_PERF_EVENT_OPEN = 298;

    private PerfEventOpen() {}

    /**
     * Opens an event. {@code attr} holds a little-endian perf_event_attr from its position to its
     * limit (its size field must say how many bytes); {@code what} names the event in errors.
     */
    public static int open(ByteBuffer attr, int pid, int cpu, int groupFd, long flags, String what) {
        int len = attr.remaining();
        Memory m = new Memory(Math.max(len, 8));
        m.clear();
        for (int i = 0; i < len; i++) {
            m.setByte(i, attr.get(attr.position() + i));
        }
        long fd = LibC.syscall(SYS_PERF_EVENT_OPEN, Pointer.nativeValue(m), pid, cpu, groupFd, flags);
        if (fd < 0) {
            StringBuilder op = new StringBuilder("perf_event_open(").append(what);
            if (cpu >= 0) {
                op.append(", cpu ").append(cpu);
            }
            if (pid >= 0) {
                op.append(", pid ").append(pid);
            }
            throw new NativeException(op.append(')').toString(), Errno.last());
        }
        return (int) fd;
    }
}
