package dev.jperf.nativeshim;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;

/** Scheduling and signals for the recorder's threads and its workload. */
public final class Sched {
    static final long SYS_SCHED_SETSCHEDULER = 144;
    static final long SYS_SCHED_SETAFFINITY = 203;
    public static final int SCHED_OTHER = 0;
    public static final int SCHED_FIFO = 1;
    public static final int SIGKILL = 9;
    public static final int SIGTERM = 15;
    public static final int SIGCONT = 18;

    private Sched() {}

    /**
     * Makes the calling thread SCHED_FIFO at {@code priority}: it then preempts ordinary tasks the
     * moment it wakes, even with every CPU busy. Needs CAP_SYS_NICE.
     */
    public static void setFifo(int priority) {
        setScheduler(SCHED_FIFO, priority);
    }

    /** Back to the ordinary time-sharing policy. */
    public static void setNormal() {
        setScheduler(SCHED_OTHER, 0);
    }

    private static void setScheduler(int policy, int priority) {
        Memory param = new Memory(4);
        param.setInt(0, priority);
        if (LibC.syscall(SYS_SCHED_SETSCHEDULER, 0, policy, Pointer.nativeValue(param), 0, 0) < 0) {
            throw new NativeException("sched_setscheduler(" + (policy == SCHED_FIFO ? "SCHED_FIFO " : "SCHED_OTHER ")
                    + priority + ")", Errno.last());
        }
    }

    /** Binds the calling thread to {@code cpu} (sched_setaffinity). */
    public static void setAffinity(int cpu) {
        int words = cpu / 64 + 1;
        Memory mask = new Memory(8L * words);
        mask.clear();
        mask.setLong(8L * (cpu / 64), 1L << (cpu % 64));
        if (LibC.syscall(SYS_SCHED_SETAFFINITY, 0, 8L * words, Pointer.nativeValue(mask), 0, 0) < 0) {
            throw new NativeException("sched_setaffinity(cpu " + cpu + ")", Errno.last());
        }
    }

    /** kill(2). */
    public static void kill(int pid, int signal) {
        if (LibC.kill(pid, signal) < 0) {
            throw new NativeException("kill(" + pid + ", " + signal + ")", Errno.last());
        }
    }
}
