package dev.jperf.bpf;

import com.sun.jna.Memory;
import dev.jperf.format.btf.Btf;
import dev.jperf.loader.BpfObjInfo;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The kernel's BPF objects through bpf(2): fds by id, their info structs, a BTF object by id. */
final class KernelObjects {
    /** A BTF object larger than this is refused rather than allocated (vmlinux's is ~6 MB). */
    private static final int MAX_BTF_SIZE = 256 << 20;

    final Bpf bpf = new Bpf();

    /** strerror text, as bpftool prints it after its messages. */
    static String strerror(NativeException e) {
        return Errno.text(e.errno());
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
        return Btf.parse(btfBytes(id));
    }

    /** BTF object {@code id}'s blob. */
    byte[] btfBytes(int id) {
        try {
            return BpfObjInfo.btfBlob(bpf, id, MAX_BTF_SIZE);
        } catch (IllegalStateException e) {
            throw new BpftoolException(e.getMessage());
        }
    }

    /**
     * open_obj_pinned_any: an fd for the object pinned at {@code path}, which must be a
     * {@code expected} ("prog" or "map"); bpftool's messages otherwise.
     */
    int pinned(String path, String expected) {
        int fd;
        try {
            fd = bpf.objGet(path);
        } catch (NativeException e) {
            // bpftool's dirname() rewrites the path it then prints, in the EACCES case
            String dir = dirname(path);
            throw new BpftoolException(e.errno() == Errno.EACCES && !Bpffs.isBpffs(dir)
                    ? "bpf obj get (" + dir + "): directory not in bpf file system (bpffs)"
                    : "bpf obj get (" + path + "): " + strerror(e));
        }
        String type = fdType(fd);
        if (type == null) {
            Fd.close(fd);
            throw new BpftoolException("can't read link type of fd " + fd);
        }
        if (!type.equals(expected)) {
            Fd.close(fd);
            throw new BpftoolException("incorrect object type: " + type);
        }
        return fd;
    }

    /** get_fd_type: "prog", "map", "link" or "unknown" from the fd's /proc link; null when unreadable. */
    static String fdType(int fd) {
        try {
            String link = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
            return link.contains("bpf-map") ? "map" : link.contains("bpf-prog") ? "prog"
                    : link.contains("bpf-link") ? "link" : "unknown";
        } catch (IOException e) {
            return null;
        }
    }

    /** dirname(3). */
    static String dirname(String path) {
        String p = path;
        while (p.length() > 1 && p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        int slash = p.lastIndexOf('/');
        if (slash < 0) {
            return ".";
        }
        while (slash > 0 && p.charAt(slash - 1) == '/') {
            slash--;
        }
        return slash == 0 ? "/" : p.substring(0, slash);
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
