package dev.jperf.nativeshim;

import com.sun.jna.Memory;

/**
 * getrusage(2): CPU time of this process's waited-for children, as perf stat prints a workload's
 * user and sys time (it takes them from wait4; the JVM reaps the child itself, so jperf reads the
 * children's total before and after and takes the difference).
 *
 * @param userMicros ru_utime in microseconds
 * @param sysMicros  ru_stime in microseconds
 */
public record ResourceUsage(long userMicros, long sysMicros) {
    static final int RUSAGE_CHILDREN = -1;
    /** sizeof(struct rusage) on 64-bit Linux: two timevals and fourteen longs. */
    static final int SIZE = 144;

    /** The children's totals (RUSAGE_CHILDREN). */
    public static ResourceUsage children() {
        Memory m = new Memory(SIZE);
        m.clear();
        if (LibC.getrusage(RUSAGE_CHILDREN, com.sun.jna.Pointer.nativeValue(m)) < 0) {
            throw new NativeException("getrusage(RUSAGE_CHILDREN)", Errno.last());
        }
        return new ResourceUsage(m.getLong(0) * 1_000_000L + m.getLong(8), m.getLong(16) * 1_000_000L + m.getLong(24));
    }

    /** What was used since {@code before}. */
    public ResourceUsage since(ResourceUsage before) {
        return new ResourceUsage(userMicros - before.userMicros, sysMicros - before.sysMicros);
    }
}
