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
    private static final Function CLOCK_GETRES =
            NativeLibrary.getInstance(Platform.C_LIBRARY_NAME).getFunction("clock_getres");

    private Clocks() {}

    /** The clock's {tv_sec, tv_nsec}. */
    public static long[] get(int clock) {
        Memory ts = new Memory(16);
        if (CLOCK_GETTIME.invokeInt(new Object[] {clock, ts}) != 0) {
            throw new NativeException("clock_gettime(" + clock + ")", Errno.last());
        }
        return new long[] {ts.getLong(0), ts.getLong(8)};
    }

    /** clock_getres(2) in ns; -1 when the clock has none (an id the kernel does not know). */
    public static long resolutionNs(int clock) {
        Memory ts = new Memory(16);
        if (CLOCK_GETRES.invokeInt(new Object[] {clock, ts}) != 0) {
            return -1;
        }
        return ts.getLong(0) * 1_000_000_000L + ts.getLong(8);
    }
}
