package dev.jperf.loader;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.bpf.BpfProgInfoLayout;
import dev.jperf.format.bpf.BpilArray;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Fd;
import java.util.EnumMap;
import java.util.Map;

/**
 * BPF_OBJ_GET_INFO_BY_FD for programs and BTF objects: the one reader of a loaded program's
 * bpf_prog_info (as format's {@link BpfProgInfo}) and of a BTF object's blob, for the loader,
 * the recorder (stat -b, bpf top, record's BPF events) and bpftool's commands. Here rather than in
 * native-shim because the result types are format's, which native-shim does not see.
 */
public final class BpfObjInfo {
    private BpfObjInfo() {
    }

    /**
     * The program behind {@code fd} as one {@link BpfProgInfo}: the one reader of bpf_prog_info.
     * Without arrays one BPF_OBJ_GET_INFO_BY_FD; with arrays (a {@link BpilArray} mask, e.g.
     * {@link BpilArray#PERF_DEFAULT_MASK}) perf's two passes: counts and record sizes first, then
     * every wanted array into one buffer.
     *
     * @throws NativeException when the kernel refuses the fd
     * @throws IllegalStateException when the counts claim more than 256 MiB
     */
    public static BpfProgInfo progInfo(Bpf bpf, int fd, long arrays) {
        Memory first = new Memory(BpfProgInfoLayout.SIZE);
        first.clear();
        bpf.objGetInfoByFd(fd, first, BpfProgInfoLayout.SIZE);
        BpilArray[] all = BpilArray.values();
        long[] bytes = new long[all.length];
        long total = 0;
        for (BpilArray a : all) {
            if ((arrays & a.mask()) != 0) {
                bytes[a.ordinal()] = infoArrayBytes(first, a);
                total += (bytes[a.ordinal()] + 7) & ~7L;
            }
        }
        Map<BpilArray, byte[]> got = new EnumMap<>(BpilArray.class);
        if ((arrays & ((1L << all.length) - 1)) == 0) {
            return BpfProgInfo.fromKernel(first.getByteArray(0, BpfProgInfoLayout.SIZE), got);
        }
        String id = Integer.toUnsignedString(first.getInt(BpfProgInfoLayout.ID));
        if (total > 256L << 20) {
            throw new IllegalStateException("bpf_prog_info of program " + id + " claims " + total + " bytes of arrays");
        }
        Memory data = new Memory(Math.max(8, total));
        data.clear();
        Memory second = new Memory(BpfProgInfoLayout.SIZE);
        second.clear();
        long[] offsets = new long[all.length];
        long off = 0;
        for (BpilArray a : all) {
            if ((arrays & a.mask()) != 0) {
                offsets[a.ordinal()] = off;
                second.setInt(a.countOffset(), first.getInt(a.countOffset()));
                if (a.recSizeOffset() >= 0) {
                    second.setInt(a.recSizeOffset(), first.getInt(a.recSizeOffset()));
                }
                second.setLong(a.pointerOffset(), Pointer.nativeValue(data) + off);
                off += (bytes[a.ordinal()] + 7) & ~7L;
            }
        }
        bpf.objGetInfoByFd(fd, second, BpfProgInfoLayout.SIZE);
        for (BpilArray a : all) {
            if ((arrays & a.mask()) != 0) {
                // the kernel writes the real count back and fills at most pass 1's: a map bound since
                // (BPF_PROG_BIND_MAP) grows map_ids; perf warns and keeps what was filled, as here
                long n = Math.min(Integer.toUnsignedLong(first.getInt(a.countOffset())),
                        Integer.toUnsignedLong(second.getInt(a.countOffset())));
                second.setInt(a.countOffset(), (int) n);
                got.put(a, data.getByteArray(offsets[a.ordinal()], (int) infoArrayBytes(second, a)));
            }
        }
        return BpfProgInfo.fromKernel(second.getByteArray(0, BpfProgInfoLayout.SIZE), got);
    }

    private static long infoArrayBytes(Memory info, BpilArray a) {
        long n = Integer.toUnsignedLong(info.getInt(a.countOffset()));
        long elem = a.recSizeOffset() >= 0 ? Integer.toUnsignedLong(info.getInt(a.recSizeOffset())) : a.fixedSize();
        return n * elem;
    }

    /**
     * BTF object {@code id}'s raw blob, as btf__load_from_kernel_by_id reads it: BPF_OBJ_GET_INFO_BY_FD
     * for its size, then again into a buffer of that size.
     *
     * @throws dev.jperf.nativeshim.NativeException when the kernel has no such object or refuses it
     * @throws IllegalStateException when the kernel claims no bytes, or more than {@code maxSize}
     */
    public static byte[] btfBlob(Bpf bpf, int id, long maxSize) {
        int fd = bpf.btfGetFdById(id);
        try {
            Memory info = new Memory(BpfProgInfoLayout.BTF_INFO_SIZE);
            info.clear();
            bpf.objGetInfoByFd(fd, info, BpfProgInfoLayout.BTF_INFO_SIZE);
            long size = Integer.toUnsignedLong(info.getInt(BpfProgInfoLayout.BTF_INFO_BTF_SIZE));
            if (size == 0 || size > maxSize) {
                throw new IllegalStateException("BTF object " + Integer.toUnsignedString(id) + " claims " + size + " bytes");
            }
            Memory blob = new Memory(size);
            info.clear();
            info.setLong(BpfProgInfoLayout.BTF_INFO_BTF, Pointer.nativeValue(blob));
            info.setInt(BpfProgInfoLayout.BTF_INFO_BTF_SIZE, (int) size);
            bpf.objGetInfoByFd(fd, info, BpfProgInfoLayout.BTF_INFO_SIZE);
            long got = Integer.toUnsignedLong(info.getInt(BpfProgInfoLayout.BTF_INFO_BTF_SIZE));
            return blob.getByteArray(0, (int) Math.min(size, got));
        } finally {
            Fd.close(fd);
        }
    }
}
