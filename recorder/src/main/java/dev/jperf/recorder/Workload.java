package dev.jperf.recorder;

import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.Sched;
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
 * counting starts exactly at the exec, as with perf.
 */
public final class Workload {
    private final Process process;

    private Workload(Process process) {
        this.process = process;
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
        Process p;
        try {
            p = new ProcessBuilder(argv).inheritIO().start();
        } catch (IOException e) {
            throw new RecordException("cannot start workload '" + exe + "': " + e.getMessage(), e);
        }
        Workload w = new Workload(p);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        // the shell stops itself a few milliseconds after the spawn: check after 50 us, then back
        // off to 1 ms, so the wait costs a few dozen reads of its stat file, not hundreds
        long pause = 50_000L;
        ProcFile stat = new ProcFile();
        while (!w.stopped(stat)) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                p.destroyForcibly();
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

    /** Whether the child has stopped itself (state T in /proc/PID/stat: after the last ')' and a blank). */
    private boolean stopped(ProcFile stat) {
        try {
            int n = stat.read(Path.of("/proc/" + pid() + "/stat"));
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
        return (int) process.pid();
    }

    public void go() {
        Sched.kill(pid(), Sched.SIGCONT);
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** SIGTERM, as perf does when recording stops before its workload ends. */
    public void terminate() {
        try {
            Sched.kill(pid(), Sched.SIGTERM);
        } catch (NativeException e) {
            // already gone
        }
    }

    /** Waits up to {@code ms} for the exit; returns the exit code or -1. */
    public int waitFor(long ms) throws InterruptedException {
        return process.waitFor(ms, TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
    }

    public void kill() {
        process.destroyForcibly();
    }
}
