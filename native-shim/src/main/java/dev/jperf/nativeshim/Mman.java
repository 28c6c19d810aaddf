package dev.jperf.nativeshim;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** mmap/munmap of an fd, exposed as a little-endian direct ByteBuffer. */
public final class Mman {
    public static final int PROT_READ = 1;
    public static final int PROT_WRITE = 2;
    public static final int MAP_SHARED = 1;
    /** Fault every page in at mmap time, so later readers never take the page-fault path. */
    public static final int MAP_POPULATE = 0x8000;
    private static final long MAP_FAILED = -1;
    /** The system's page size: 4 KiB on x86-64, 16 or 64 KiB on some arm64 kernels. */
    private static final int PAGE_SIZE = LibC.getpagesize();

    private Mman() {}

    /** getpagesize(): the unit of mmap and of perf's ring buffers (perf's page_size). */
    public static int pageSize() {
        return PAGE_SIZE;
    }

    /**
     * Maps {@code length} bytes of {@code fd} shared and populated; {@code what} names the mapping
     * in errors.
     */
    public static ByteBuffer mmap(int fd, long length, int prot, String what) {
        long addr = LibC.mmap(0, length, prot, MAP_SHARED | MAP_POPULATE, fd, 0);
        if (addr == MAP_FAILED) {
            throw new NativeException("mmap(" + what + ", " + length + " bytes)", Errno.last());
        }
        // JNA hands out big-endian buffers; the kernel's structures are little-endian
        return new Pointer(addr).getByteBuffer(0, length).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Unmaps a buffer returned by {@link #mmap}; the buffer must not be used afterwards. */
    public static void munmap(ByteBuffer mapping) {
        long addr = Pointer.nativeValue(Native.getDirectBufferPointer(mapping));
        if (LibC.munmap(addr, mapping.capacity()) < 0) {
            throw new NativeException("munmap(" + mapping.capacity() + " bytes)", Errno.last());
        }
    }
}
