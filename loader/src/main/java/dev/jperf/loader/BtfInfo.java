package dev.jperf.loader;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jperf.format.bpf.BpfProgInfoLayout;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Fd;

/**
 * struct bpf_btf_info: the one place a BTF object's blob is read from the kernel (bpftool's BTF
 * commands, the loader's attach targets, the recorder's program BTF).
 */
public final class BtfInfo {
    private BtfInfo() {
    }

    /**
     * BTF object {@code id}'s raw blob, as btf__load_from_kernel_by_id reads it: BPF_OBJ_GET_INFO_BY_FD
     * for its size, then again into a buffer of that size.
     *
     * @throws dev.jperf.nativeshim.NativeException when the kernel has no such object or refuses it
     * @throws IllegalStateException when the kernel claims no bytes, or more than {@code maxSize}
     */
    public static byte[] blob(Bpf bpf, int id, long maxSize) {
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
