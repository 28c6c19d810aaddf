package dev.jperf.nativeshim;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import java.nio.charset.StandardCharsets;

/**
 * mount(2), for the file systems jperf mounts itself: tracefs when a tracepoint needs it (as libbpf
 * does), bpffs at /sys/fs/bpf when an object is to be pinned there (as bpftool does).
 */
public final class Mount {
    /** __NR_mount on x86-64. */
    static final long SYS_MOUNT = 165;

    private Mount() {}

    /** mount(source, target, fstype, 0, NULL); a {@link NativeException} with the errno on failure. */
    public static void mount(String source, String target, String fstype) {
        Memory src = cString(source);
        Memory dir = cString(target);
        Memory type = cString(fstype);
        if (LibC.syscall(SYS_MOUNT, Pointer.nativeValue(src), Pointer.nativeValue(dir), Pointer.nativeValue(type), 0, 0) < 0) {
            throw new NativeException("mount(" + fstype + " on " + target + ")", Errno.last());
        }
    }

    private static Memory cString(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        Memory m = new Memory(b.length + 1);
        m.write(0, b, 0, b.length);
        m.setByte(b.length, (byte) 0);
        return m;
    }
}
