package dev.jperf.nativeshim;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import dev.jperf.format.unsafe.Unsafes;
import java.nio.ByteBuffer;
import sun.misc.Unsafe;

/**
 * Reads of the rings' memory by address, for the fields the recorder's copy path reads in every record (its
 * header, a sample's pid, ip and time). Under C1, which compiles the recorder, a direct buffer's
 * getLong is a chain of calls (index and session checks, ScopedMemoryAccess, the unaligned-access
 * helpers) while Unsafe's is one load. Callers read only inside a record whose bounds the ring walk
 * has checked; the kernel writes the rings in the machine's byte order, which Unsafe reads.
 */
public final class RawMemory {
    private static final Unsafe UNSAFE = Unsafes.unsafe();

    private RawMemory() {
    }

    /** The address of a direct buffer's first byte. */
    public static long address(ByteBuffer direct) {
        return Pointer.nativeValue(Native.getDirectBufferPointer(direct));
    }

    public static long getLong(long address) {
        return UNSAFE.getLong(address);
    }

    public static int getInt(long address) {
        return UNSAFE.getInt(address);
    }
}
