package dev.jperf.nativeshim;

import com.sun.jna.Function;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.PrimitiveCall;

/**
 * libc entry points, called through JNA {@link Function}s ({@link PrimitiveCall}: every
 * argument here is an Integer or a Long, every result an int or a long). Not direct mapping
 * ({@code Native.register}): registering eleven natives built JNA's FFI type structures and
 * reflected over every method, ~15 ms of each recording's start, while the calls themselves are
 * few (a bpf(2) per program pinned, a poll per pass of the rings): a boxed argument array per call
 * costs less. Every pointer is passed as a {@code long} address and every variadic argument as a
 * {@code long}, so the upper register half is defined (java-stack.md §5). errno is read by the
 * callers with {@link Native#getLastError()} only when the result is -1.
 */
final class LibC {
    private static final NativeLibrary C = NativeLibrary.getInstance(Platform.C_LIBRARY_NAME);
    private static final Function SYSCALL = C.getFunction("syscall");
    private static final Function IOCTL = C.getFunction("ioctl");
    private static final Function MMAP = C.getFunction("mmap");
    private static final Function MUNMAP = C.getFunction("munmap");
    private static final Function POLL = C.getFunction("poll");
    private static final Function READ = C.getFunction("read");
    private static final Function WRITE = C.getFunction("write");
    private static final Function CLOSE = C.getFunction("close");
    private static final Function DUP2 = C.getFunction("dup2");
    private static final Function KILL = C.getFunction("kill");
    private static final Function STRERROR = C.getFunction("strerror");
    private static final Function GETRUSAGE = C.getFunction("getrusage");
    private static final Function TCGETATTR = C.getFunction("tcgetattr");
    private static final Function TCSETATTR = C.getFunction("tcsetattr");
    private static final Function ISATTY = C.getFunction("isatty");
    private static final Function POSIX_SPAWN = C.getFunction("posix_spawn");
    private static final Function SPAWNATTR_INIT = C.getFunction("posix_spawnattr_init");
    private static final Function SPAWNATTR_DESTROY = C.getFunction("posix_spawnattr_destroy");
    private static final Function SPAWNATTR_SETFLAGS = C.getFunction("posix_spawnattr_setflags");
    private static final Function SPAWNATTR_SETSIGMASK = C.getFunction("posix_spawnattr_setsigmask");
    private static final Function FILE_ACTIONS_INIT = C.getFunction("posix_spawn_file_actions_init");
    private static final Function FILE_ACTIONS_DESTROY = C.getFunction("posix_spawn_file_actions_destroy");
    /** glibc 2.34+ only: null before it. */
    private static final Function FILE_ACTIONS_CLOSEFROM = optional("posix_spawn_file_actions_addclosefrom_np");
    private static final Function SIGEMPTYSET = C.getFunction("sigemptyset");
    private static final Function FCNTL = C.getFunction("fcntl");
    private static final Function WAITPID = C.getFunction("waitpid");
    private static final Function GETPAGESIZE = C.getFunction("getpagesize");

    private LibC() {}

    static long syscall(long number, long a1, long a2, long a3, long a4, long a5) {
        return PrimitiveCall.invokeLong(SYSCALL, new Object[] {number, a1, a2, a3, a4, a5});
    }

    static int ioctl(int fd, long request, long arg) {
        return PrimitiveCall.invokeInt(IOCTL, new Object[] {fd, request, arg});
    }

    static long mmap(long addr, long length, int prot, int flags, int fd, long offset) {
        return PrimitiveCall.invokeLong(MMAP, new Object[] {addr, length, prot, flags, fd, offset});
    }

    static int getpagesize() {
        return PrimitiveCall.invokeInt(GETPAGESIZE, new Object[0]);
    }

    static int munmap(long addr, long length) {
        return PrimitiveCall.invokeInt(MUNMAP, new Object[] {addr, length});
    }

    static int poll(long fds, long nfds, int timeoutMs) {
        return PrimitiveCall.invokeInt(POLL, new Object[] {fds, nfds, timeoutMs});
    }

    static long read(int fd, long buf, long count) {
        return PrimitiveCall.invokeLong(READ, new Object[] {fd, buf, count});
    }

    static long write(int fd, long buf, long count) {
        return PrimitiveCall.invokeLong(WRITE, new Object[] {fd, buf, count});
    }

    static int close(int fd) {
        return PrimitiveCall.invokeInt(CLOSE, new Object[] {fd});
    }

    static int dup2(int oldfd, int newfd) {
        return PrimitiveCall.invokeInt(DUP2, new Object[] {oldfd, newfd});
    }

    static int kill(int pid, int sig) {
        return PrimitiveCall.invokeInt(KILL, new Object[] {pid, sig});
    }

    static int getrusage(int who, long usage) {
        return PrimitiveCall.invokeInt(GETRUSAGE, new Object[] {who, usage});
    }

    static int tcgetattr(int fd, long termios) {
        return PrimitiveCall.invokeInt(TCGETATTR, new Object[] {fd, termios});
    }

    static int tcsetattr(int fd, int action, long termios) {
        return PrimitiveCall.invokeInt(TCSETATTR, new Object[] {fd, action, termios});
    }

    static int isatty(int fd) {
        return PrimitiveCall.invokeInt(ISATTY, new Object[] {fd});
    }

    static int posixSpawn(long pid, long path, long fileActions, long attr, long argv, long envp) {
        return PrimitiveCall.invokeInt(POSIX_SPAWN, new Object[] {pid, path, fileActions, attr, argv, envp});
    }

    static int posixSpawnattrInit(long attr) {
        return PrimitiveCall.invokeInt(SPAWNATTR_INIT, new Object[] {attr});
    }

    static int posixSpawnattrDestroy(long attr) {
        return PrimitiveCall.invokeInt(SPAWNATTR_DESTROY, new Object[] {attr});
    }

    static int posixSpawnattrSetflags(long attr, short flags) {
        return PrimitiveCall.invokeInt(SPAWNATTR_SETFLAGS, new Object[] {attr, flags});
    }

    static int posixSpawnattrSetsigmask(long attr, long sigset) {
        return PrimitiveCall.invokeInt(SPAWNATTR_SETSIGMASK, new Object[] {attr, sigset});
    }

    static int posixSpawnFileActionsInit(long actions) {
        return PrimitiveCall.invokeInt(FILE_ACTIONS_INIT, new Object[] {actions});
    }

    static int posixSpawnFileActionsDestroy(long actions) {
        return PrimitiveCall.invokeInt(FILE_ACTIONS_DESTROY, new Object[] {actions});
    }

    static boolean hasCloseFrom() {
        return FILE_ACTIONS_CLOSEFROM != null;
    }

    static int posixSpawnFileActionsAddclosefrom(long actions, int from) {
        return PrimitiveCall.invokeInt(FILE_ACTIONS_CLOSEFROM, new Object[] {actions, from});
    }

    static int sigemptyset(long set) {
        return PrimitiveCall.invokeInt(SIGEMPTYSET, new Object[] {set});
    }

    static int fcntl(int fd, int cmd, int arg) {
        return PrimitiveCall.invokeInt(FCNTL, new Object[] {fd, cmd, arg});
    }

    static int waitpid(int pid, long status, int options) {
        return PrimitiveCall.invokeInt(WAITPID, new Object[] {pid, status, options});
    }

    /** libc's {@code environ}: this process's environment as a NULL-terminated array of "NAME=value". */
    static long environ() {
        return C.getGlobalVariableAddress("environ").getLong(0);
    }

    private static Function optional(String name) {
        try {
            return C.getFunction(name);
        } catch (UnsatisfiedLinkError e) {
            return null;
        }
    }

    static String strerror(int errnum) {
        return STRERROR.invokeString(new Object[] {errnum}, false);
    }
}
