package dev.jperf.nativeshim;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;

/**
 * capget(2) and capset(2) on the calling thread (capabilities are per thread): what bpftool's
 * {@code feature probe unprivileged} does through libcap to probe as a user would, and undoes.
 */
public final class Caps {
    /** __NR_capget, __NR_capset on x86-64. */
    static final long SYS_CAPGET = 125;
    static final long SYS_CAPSET = 126;
    /** _LINUX_CAPABILITY_VERSION_3: two 32-bit words per set. */
    private static final int VERSION_3 = 0x20080522;

    private Caps() {}

    /** The thread's {effective, permitted, inheritable} sets as 64-bit masks; a {@link NativeException} on failure. */
    public static long[] get() {
        Memory header = header();
        Memory data = new Memory(24);
        data.clear();
        if (LibC.syscall(SYS_CAPGET, Pointer.nativeValue(header), Pointer.nativeValue(data), 0, 0, 0) < 0) {
            throw new NativeException("capget", Errno.last());
        }
        long[] sets = new long[3];
        for (int s = 0; s < 3; s++) {
            sets[s] = Integer.toUnsignedLong(data.getInt(s * 4)) | Integer.toUnsignedLong(data.getInt(12 + s * 4)) << 32;
        }
        return sets;
    }

    /** Sets the thread's {effective, permitted, inheritable} sets: 0, or the errno. */
    public static int set(long[] sets) {
        Memory header = header();
        Memory data = new Memory(24);
        for (int s = 0; s < 3; s++) {
            data.setInt(s * 4, (int) sets[s]);
            data.setInt(12 + s * 4, (int) (sets[s] >>> 32));
        }
        return LibC.syscall(SYS_CAPSET, Pointer.nativeValue(header), Pointer.nativeValue(data), 0, 0, 0) < 0
                ? Errno.last() : 0;
    }

    private static Memory header() {
        Memory h = new Memory(8);
        h.setInt(0, VERSION_3);
        h.setInt(4, 0); // this thread
        return h;
    }
}
