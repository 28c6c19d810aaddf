package dev.jperf.bpf;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jperf.format.btf.Btf;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.BpfProgInfoLayout;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import java.io.IOException;
import java.nio.file.Path;

/** The kernel's BPF objects through bpf(2): fds by id, their info structs, a BTF object by id. */
final class KernelObjects {
    /** A BTF object larger than this is refused rather than allocated (vmlinux's is ~6 MB). */
    private static final int MAX_BTF_SIZE = 256 << 20;

    final Bpf bpf = new Bpf();

    /** strerror text, as bpftool prints it after its messages. */
    static String strerror(NativeException e) {
        return Errno.strerror(e.errno());
    }

    /** BPF_OBJ_GET_INFO_BY_FD into {@code info} (cleared first when {@code clear}); the bytes written back. */
    byte[] info(int fd, Memory info, int size, boolean clear) {
        if (clear) {
            info.clear(size);
        }
        bpf.objGetInfoByFd(fd, info, size);
        return info.getByteArray(0, size);
    }

    /** btf__load_from_kernel_by_id: BTF object {@code id} parsed (standalone, as libbpf parses it without a base). */
    Btf btf(int id) {
        int fd = bpf.btfGetFdById(id);
        try {
            Memory info = new Memory(BpfProgInfoLayout.BTF_INFO_SIZE);
            info.clear();
            bpf.objGetInfoByFd(fd, info, BpfProgInfoLayout.BTF_INFO_SIZE);
            long size = Integer.toUnsignedLong(info.getInt(BpfProgInfoLayout.BTF_INFO_BTF_SIZE));
            if (size == 0 || size > MAX_BTF_SIZE) {
                throw new BpftoolException("BTF object " + Integer.toUnsignedString(id) + " claims " + size + " bytes");
            }
            Memory blob = new Memory(size);
            info.clear();
            info.setLong(BpfProgInfoLayout.BTF_INFO_BTF, Pointer.nativeValue(blob));
            info.setInt(BpfProgInfoLayout.BTF_INFO_BTF_SIZE, (int) size);
            bpf.objGetInfoByFd(fd, info, BpfProgInfoLayout.BTF_INFO_SIZE);
            long got = Integer.toUnsignedLong(info.getInt(BpfProgInfoLayout.BTF_INFO_BTF_SIZE));
            return Btf.parse(blob.getByteArray(0, (int) Math.min(size, got)));
        } finally {
            Fd.close(fd);
        }
    }

    /** libbpf_find_kernel_btf: the running kernel's BTF. */
    static Btf vmlinuxBtf() {
        try {
            return Btf.load(Path.of("/sys/kernel/btf/vmlinux"));
        } catch (IOException e) {
            throw new BpftoolException("failed to get kernel btf");
        }
    }
}
