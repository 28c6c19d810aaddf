package dev.jperf.nativeshim;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.nio.charset.StandardCharsets;

/**
 * mount(2), for the file systems jperf mounts itself: tracefs when a tracepoint needs it (as libbpf
 * does), bpffs at /sys/fs/bpf when an object is to be pinned there (as bpftool does); sync(2).
 */
public final class Mount {
    /** __NR_mount on x86-64. */
    static final long SYS_MOUNT = 165;

    private Mount() {}

    public static final long MS_BIND = 4096;
    public static final long MS_REC = 16384;
    public static final long MS_PRIVATE = 1 << 18;

    /** mount(source, target, fstype, 0, NULL); a {@link NativeException} with the errno on failure. */
    public static void mount(String source, String target, String fstype) {
        int errno = mount(source, target, fstype, 0, null);
        if (errno != 0) {
            throw new NativeException("mount(" + fstype + " on " + target + ")", errno);
        }
    }

    /** mount(source, target, fstype, flags, data): 0, or the errno. */
    public static int mount(String source, String target, String fstype, long flags, String data) {
        Memory src = cString(source);
        Memory dir = cString(target);
        Memory type = cString(fstype);
        Memory d = data == null ? null : cString(data);
        return LibC.syscall(SYS_MOUNT, Pointer.nativeValue(src), Pointer.nativeValue(dir), Pointer.nativeValue(type), flags,
                d == null ? 0 : Pointer.nativeValue(d)) < 0 ? Errno.last() : 0;
    }

    /** __NR_sync on x86-64. */
    static final long SYS_SYNC = 162;

    /** sync(2): every file system's dirty data written back (perf stat -S before each run). */
    public static void sync() {
        LibC.syscall(SYS_SYNC, 0, 0, 0, 0, 0);
    }

    /** __NR_statfs on x86-64. */
    static final long SYS_STATFS = 137;
    /** BPF_FS_MAGIC: statfs's f_type of a bpf file system. */
    public static final long BPF_FS_MAGIC = 0xcafe4a11L;

    /**
     * statfs(2)'s f_type of the file system holding {@code path} (the top one where mounts are
     * stacked, which /proc/mounts does not tell), or -errno.
     */
    public static long fsType(String path) {
        Memory p = cString(path);
        Memory buf = new Memory(120); // sizeof(struct statfs) on x86-64; f_type first
        buf.clear();
        if (LibC.syscall(SYS_STATFS, Pointer.nativeValue(p), Pointer.nativeValue(buf), 0, 0, 0) < 0) {
            return -Errno.last();
        }
        return buf.getLong(0);
    }

    private static Memory cString(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        Memory m = new Memory(b.length + 1);
        m.write(0, b, 0, b.length);
        m.setByte(b.length, (byte) 0);
        return m;
    }
}
