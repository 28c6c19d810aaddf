package dev.jperf.bpf;

import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Mount;

/**
 * Pinning as bpftool's common.c does it: the pin's directory must be in a bpf file system, and
 * when it is not, one is mounted there (mnt_fs: the directory made a private mount, bind-mounted
 * onto itself first if it is not a mount point, then bpffs with mode 0700 on it).
 */
final class Bpffs {
    private Bpffs() {}

    /** is_bpffs: statfs's f_type is BPF_FS_MAGIC. */
    static boolean isBpffs(String dir) {
        return Mount.fsType(dir) == Mount.BPF_FS_MAGIC;
    }

    /** mount_bpffs_for_pin: bpffs on the directory of {@code name} unless it is one already. */
    static void mountForPin(String name) {
        String dir = KernelObjects.dirname(name);
        if (isBpffs(dir)) {
            return;
        }
        String why = mount(dir, "bpf");
        if (why != null) {
            throw new BpftoolException("can't mount BPF file system to pin the object (" + name + "): " + why);
        }
    }

    /** mnt_fs(dir, type), for "bpf" and "tracefs": null, or what failed as bpftool says it. */
    static String mount(String dir, String type) {
        boolean bindDone = false;
        int errno;
        while ((errno = Mount.mount("", dir, "none", Mount.MS_PRIVATE | Mount.MS_REC, null)) != 0) {
            if (errno != Errno.EINVAL || bindDone) {
                return "mount --make-private " + dir + " failed: " + Errno.text(errno);
            }
            errno = Mount.mount(dir, dir, "none", Mount.MS_BIND, null);
            if (errno != 0) {
                return "mount --bind " + dir + " " + dir + " failed: " + Errno.text(errno);
            }
            bindDone = true;
        }
        errno = Mount.mount(type, dir, type, 0, "mode=0700");
        return errno == 0 ? null : "mount -t " + type + " " + type + " " + dir + " failed: " + Errno.text(errno);
    }

    /**
     * do_pin_fd: {@code fd} pinned at {@code name}, bpffs mounted for it first if need be; a
     * refused pin exits as bpftool's does, with the negated errno.
     */
    static void pinFd(Bpf bpf, int fd, String name) {
        mountForPin(name);
        int err = bpf.objPin(fd, name);
        if (err < 0) {
            throw new BpftoolException("can't pin the object (" + name + "): " + Errno.text(-err), false, err & 0xff);
        }
    }
}
