package dev.jperf.recorder;

import static dev.jperf.format.bpf.BpfProgInfoLayout.*;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.bpf.BpilArray;
import dev.jperf.loader.BtfInfo;
import dev.jperf.nativeshim.Bpf;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** A loaded BPF program's bpf_prog_info with its arrays, and a BTF object's blob, fetched from the kernel. */
public final class BpfProgFetch {
    private BpfProgFetch() {}

    /**
     * The two-pass BPF_OBJ_GET_INFO_BY_FD of bpf-metadata.md §4: counts and record sizes first,
     * then every array perf stores (0x1f9) into one buffer.
     */
    public static BpfProgInfo info(Bpf bpf, int id, int fd) {
        Memory first = new Memory(SIZE);
        first.clear();
        bpf.objGetInfoByFd(fd, first, SIZE);
        List<BpilArray> wanted = new ArrayList<>();
        for (BpilArray a : BpilArray.values()) {
            if ((BpilArray.PERF_DEFAULT_MASK & a.mask()) != 0) {
                wanted.add(a);
            }
        }
        long[] bytes = new long[BpilArray.values().length];
        long total = 0;
        for (BpilArray a : wanted) {
            bytes[a.ordinal()] = byteLength(first, a);
            total += (bytes[a.ordinal()] + 7) & ~7L;
        }
        if (total > 256L << 20) {
            throw new IllegalStateException("bpf_prog_info of program " + id + " claims " + total + " bytes of arrays");
        }
        Memory data = new Memory(Math.max(8, total));
        data.clear();
        Memory second = new Memory(SIZE);
        second.clear();
        long[] offsets = new long[bytes.length];
        long off = 0;
        for (BpilArray a : wanted) {
            offsets[a.ordinal()] = off;
            second.setInt(a.countOffset(), first.getInt(a.countOffset()));
            if (a.recSizeOffset() >= 0) {
                second.setInt(a.recSizeOffset(), first.getInt(a.recSizeOffset()));
            }
            second.setLong(a.pointerOffset(), Pointer.nativeValue(data) + off);
            off += (bytes[a.ordinal()] + 7) & ~7L;
        }
        bpf.objGetInfoByFd(fd, second, SIZE);
        Map<BpilArray, byte[]> arrays = new EnumMap<>(BpilArray.class);
        for (BpilArray a : wanted) {
            // the kernel writes the real counts back: equal to pass 1's for a loaded program
            if (byteLength(second, a) != bytes[a.ordinal()]) {
                throw new IllegalStateException("bpf_prog_info of program " + id + ": " + a + " changed between passes");
            }
            arrays.put(a, data.getByteArray(offsets[a.ordinal()], (int) bytes[a.ordinal()]));
        }
        return BpfProgInfo.fromKernel(second.getByteArray(0, SIZE), arrays);
    }

    private static long byteLength(Memory info, BpilArray a) {
        long n = Integer.toUnsignedLong(info.getInt(a.countOffset()));
        long elem = a.recSizeOffset() >= 0 ? Integer.toUnsignedLong(info.getInt(a.recSizeOffset())) : a.fixedSize();
        return n * elem;
    }

    /** The raw BTF blob of BTF object {@code btfId} (bpf_btf_info, two passes). */
    public static byte[] btf(Bpf bpf, int btfId) {
        return BtfInfo.blob(bpf, btfId, 64L << 20);
    }
}
