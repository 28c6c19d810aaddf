package dev.jperf.nativeshim;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;

/** clock_gettime(2) of the clocks the JDK does not expose (CLOCK_BOOTTIME: BPF load times count from boot). */
public final class Clocks {
    public static final int CLOCK_REALTIME = 0;
    public static final int CLOCK_BOOTTIME = 7;

    private static final Function CLOCK_GETTIME =
            NativeLibrary.getInstance(Platform.C_LIBRARY_NAME).getFunction("clock_gettime");

    private Clocks() {}

    /** The clock's {tv_sec, tv_nsec}. */
    public static long[] get(int clock) {
        Memory ts = new Memory(16);
        if (CLOCK_GETTIME.invokeInt(new Object[] {clock, ts}) != 0) {
            throw new NativeException("clock_gettime(" + clock + ")", Errno.last());
        }
        return new long[] {ts.getLong(0), ts.getLong(8)};
    }
}
