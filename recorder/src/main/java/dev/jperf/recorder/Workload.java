package dev.jperf.recorder;

import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.Poll;
import dev.jperf.nativeshim.Sched;
import dev.jperf.nativeshim.Spawn;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The command after {@code --}. The JVM cannot fork-and-wait-before-exec as perf does, so the
 * child is a shell that stops itself ({@code kill -STOP $$}) and then execs the command: events
 * are opened on the stopped child with enable_on_exec and it is continued with SIGCONT, so
 * counting starts exactly at the exec, as with perf. The shell is started by posix_spawn and
 * waited for through a pidfd (native-shim's {@code Spawn}), not by the JDK's ProcessBuilder.
 */
public final class Workload {
    private final int pid;
    /** Readable once the child has ended; -1 where the kernel has no pidfd_open (then waits poll waitpid). */
    private int pidfd;
    private final Poll ended;
    /** The wait status once reaped, else -1. */
    private int status = -1;

    private Workload(int pid) {
        this.pid = pid;
        this.pidfd = Spawn.pidfd(pid);
        this.ended = pidfd < 0 ? null : new Poll(new int[] {pidfd}, Poll.POLLIN);
    }

    /**
     * Starts the shell, stopped before its exec. With {@code stdoutToStderr} (pipe mode: stdout
     * carries the stream) the command's stdout is its stderr, as perf's workload's is.
     */
    public static Workload startStopped(List<String> command, boolean stdoutToStderr) {
        String exe = command.get(0);
        if (!exe.contains("/") ? findInPath(exe) == null : !Files.isExecutable(Path.of(exe))) {
            throw new RecordException("cannot run workload '" + exe + "': No such file or directory (or not executable)");
        }
        List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c",
                "kill -STOP $$; exec \"$@\"" + (stdoutToStderr ? " >&2" : ""), exe));
        argv.addAll(command);
        Workload w;
        try {
            w = new Workload(Spawn.spawn("/bin/sh", argv));
        } catch (NativeException e) {
            throw new RecordException("cannot start workload '" + exe + "': " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        // the shell stops itself a few milliseconds after the spawn: check after 50 us, then back
        // off to 1 ms, so the wait costs a few dozen reads of its stat file, not hundreds
        long pause = 50_000L;
        ProcFile stat = new ProcFile();
        while (!w.stopped(stat)) {
            if (!w.alive() || System.nanoTime() > deadline) {
                w.kill();
                throw new RecordException("workload '" + exe + "' did not start");
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(2 * pause, 1_000_000L);
        }
        return w;
    }

    private static Path findInPath(String exe) {
        String path = System.getenv("PATH");
        for (String dir : (path == null ? "/usr/bin:/bin" : path).split(File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, exe);
            if (Files.isExecutable(p) && !Files.isDirectory(p)) {
                return p;
            }
        }
        return null;
    }

    /** State T in /proc/PID/stat: the shell has stopped itself. */
    private boolean stopped(ProcFile stat) {
        try {
            int n = stat.read(Path.of("/proc/" + pid + "/stat"));
            byte[] b = stat.bytes();
            int close = n - 1;
            while (close >= 0 && b[close] != ')') {
                close--;
            }
            return close > 0 && close + 2 < n && b[close + 2] == 'T';
        } catch (IOException e) {
            return false;
        }
    }

    public int pid() {
        return pid;
    }

    public void go() {
        Sched.kill(pid, Sched.SIGCONT);
    }

    public boolean alive() {
        return reap() < 0;
    }

    /** SIGTERM, as perf does when recording stops before its workload ends. */
    public void terminate() {
        signal(Sched.SIGTERM);
    }

    /** The exit code (128 + the signal when a signal ended it) once the child ends within {@code ms}, else -1. */
    public int waitFor(long ms) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (reap() < 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return -1;
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            if (ended != null) {
                ended.poll((int) Math.min(Integer.MAX_VALUE, Math.max(1, TimeUnit.NANOSECONDS.toMillis(left))));
            } else {
                LockSupport.parkNanos(Math.min(left, 1_000_000L));
            }
        }
        return Spawn.exitCode(status);
    }

    public void kill() {
        signal(Sched.SIGKILL);
    }

    private void signal(int signal) {
        if (status >= 0) {
            return;
        }
        try {
            Sched.kill(pid, signal);
        } catch (NativeException e) {
            // already gone
        }
    }

    /**
     * The wait status, reaping the child the first time it is seen ended; -1 while it runs. The
     * recording asks every pass: while the pidfd is not readable that is one poll, no waitpid.
     */
    private int reap() {
        if (status < 0 && (ended == null || ended.poll(0) > 0)) {
            status = Spawn.tryWait(pid);
            if (status >= 0 && pidfd >= 0) {
                Fd.close(pidfd);
                pidfd = -1;
            }
        }
        return status;
    }
}
