package dev.jperf.nativeshim;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import com.sun.jna.StringArray;
import java.io.File;
import java.lang.ref.Reference;
import java.nio.charset.Charset;
import java.util.List;

/**
 * A child process by posix_spawn(3), and its end by waitpid(2): what a workload needs, without the
 * JDK's ProcessBuilder (a reaper thread, a jspawnhelper exec and the method-handle set-up of its
 * lambdas: ~8 ms of every recording's start, bench/README.md). The child starts as perf's does: an
 * empty signal mask (the JVM blocks some in its threads), the signals jperf was started with ignored
 * still ignored (nohup), stdin, stdout and stderr shared, no other descriptor of ours.
 */
public final class Spawn {
    /** glibc's and musl's posix_spawnattr_setflags bit. */
    static final short POSIX_SPAWN_SETSIGMASK = 0x08;
    static final int WNOHANG = 1;
    static final long SYS_PIDFD_OPEN = 434;
    static final long SYS_CLOSE_RANGE = 436;
    static final int CLOSE_RANGE_CLOEXEC = 1 << 2;
    static final int F_SETFD = 2;
    static final int FD_CLOEXEC = 1;
    /** Room for posix_spawnattr_t (336 bytes on glibc x86-64), posix_spawn_file_actions_t (80) and sigset_t (128). */
    private static final int ATTR_ROOM = 512;
    private static final int ACTIONS_ROOM = 256;
    private static final int SIGSET_SIZE = 128;

    private Spawn() {}

    /**
     * Starts {@code path} with {@code argv} (its argv[0] first) and this process's environment.
     *
     * @return the child's pid
     * @throws NativeException when posix_spawn fails (the program missing or not executable among others)
     */
    public static int spawn(String path, List<String> argv) {
        Charset cs = filenameCharset();
        Memory attr = new Memory(ATTR_ROOM);
        Memory actions = new Memory(ACTIONS_ROOM);
        Memory signals = new Memory(SIGSET_SIZE);
        Memory pid = new Memory(4);
        Memory file = cString(path, cs);
        // char *argv[], NULL-terminated; it holds its strings
        StringArray vector = new StringArray(argv.toArray(new String[0]), cs.name());
        attr.clear();
        actions.clear();
        check(LibC.posixSpawnattrInit(Pointer.nativeValue(attr)), "posix_spawnattr_init");
        try {
            check(LibC.posixSpawnFileActionsInit(Pointer.nativeValue(actions)), "posix_spawn_file_actions_init");
            try {
                // caught signals are reset by the exec itself; ignored ones stay ignored, as after perf's fork
                LibC.sigemptyset(Pointer.nativeValue(signals));
                check(LibC.posixSpawnattrSetsigmask(Pointer.nativeValue(attr), Pointer.nativeValue(signals)),
                        "posix_spawnattr_setsigmask");
                check(LibC.posixSpawnattrSetflags(Pointer.nativeValue(attr), POSIX_SPAWN_SETSIGMASK),
                        "posix_spawnattr_setflags");
                if (LibC.hasCloseFrom()) {
                    check(LibC.posixSpawnFileActionsAddclosefrom(Pointer.nativeValue(actions), 3),
                            "posix_spawn_file_actions_addclosefrom_np");
                } else {
                    closeOnExecAbove2();
                }
                int err = LibC.posixSpawn(Pointer.nativeValue(pid), Pointer.nativeValue(file),
                        Pointer.nativeValue(actions), Pointer.nativeValue(attr), Pointer.nativeValue(vector),
                        LibC.environ());
                if (err != 0) {
                    throw new NativeException("posix_spawn(" + path + ")", err);
                }
                return pid.getInt(0);
            } finally {
                LibC.posixSpawnFileActionsDestroy(Pointer.nativeValue(actions));
            }
        } finally {
            LibC.posixSpawnattrDestroy(Pointer.nativeValue(attr));
            Reference.reachabilityFence(file);
            Reference.reachabilityFence(vector);
            Reference.reachabilityFence(signals);
        }
    }

    /**
     * waitpid(pid, WNOHANG): the wait status once the child has ended (it is then reaped), else -1.
     * A child the kernel reaped itself (jperf started with SIGCHLD ignored: ECHILD) has ended with
     * status 0, as the JDK's Process reports it.
     */
    public static int tryWait(int pid) {
        Memory status = new Memory(4);
        int r = LibC.waitpid(pid, Pointer.nativeValue(status), WNOHANG);
        if (r < 0) {
            int errno = Errno.last();
            if (errno == Errno.EINTR) {
                return -1;
            }
            if (errno == Errno.ECHILD) {
                return 0;
            }
            throw new NativeException("waitpid(" + pid + ")", errno);
        }
        return r == 0 ? -1 : status.getInt(0);
    }

    /**
     * Before glibc 2.34 (no posix_spawn_file_actions_addclosefrom_np): every descriptor of ours above 2
     * close-on-exec (the JDK opens its files without O_CLOEXEC, the class path's jar among them), by
     * close_range (Linux 5.11) or one fcntl per entry of /proc/self/fd.
     */
    static void closeOnExecAbove2() {
        if (LibC.syscall(SYS_CLOSE_RANGE, 3, 0xffffffffL, CLOSE_RANGE_CLOEXEC, 0, 0) == 0) {
            return;
        }
        String[] fds = new File("/proc/self/fd").list();
        if (fds == null) {
            return;
        }
        for (String name : fds) {
            int fd = Integer.parseInt(name);
            if (fd > 2) {
                LibC.fcntl(fd, F_SETFD, FD_CLOEXEC);
            }
        }
    }

    /** A descriptor that polls readable once the child has ended (pidfd_open, Linux 5.3), or -1 where the kernel has none. */
    public static int pidfd(int pid) {
        long fd = LibC.syscall(SYS_PIDFD_OPEN, pid, 0, 0, 0, 0);
        return fd < 0 ? -1 : (int) fd;
    }

    /** The exit code as Java's Process reports it: the status of exit(3), or 128 + the signal that ended it. */
    public static int exitCode(int status) {
        int signal = status & 0x7f;
        return signal == 0 ? (status >> 8) & 0xff : 0x80 + signal;
    }

    private static Memory cString(String s, Charset cs) {
        byte[] b = s.getBytes(cs);
        Memory m = new Memory(b.length + 1L);
        m.write(0, b, 0, b.length);
        m.setByte(b.length, (byte) 0);
        return m;
    }

    /** The charset the JDK decoded the command line and file names with. */
    private static Charset filenameCharset() {
        String name = System.getProperty("sun.jnu.encoding");
        try {
            return name == null ? Charset.defaultCharset() : Charset.forName(name);
        } catch (RuntimeException e) {
            return Charset.defaultCharset();
        }
    }

    private static void check(int err, String what) {
        if (err != 0) {
            throw new NativeException(what, err);
        }
    }
}
