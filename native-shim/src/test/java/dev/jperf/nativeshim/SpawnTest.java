package dev.jperf.nativeshim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class SpawnTest {
    private static int waitFor(int pid) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        int status;
        while ((status = Spawn.tryWait(pid)) < 0) {
            assertTrue(System.nanoTime() < deadline, "child " + pid + " did not end");
            Thread.sleep(1);
        }
        return status;
    }

    @Test
    void exitCodesAsJavasProcessReportsThem() throws Exception {
        assertEquals(7, Spawn.exitCode(waitFor(Spawn.spawn("/bin/sh", List.of("sh", "-c", "exit 7")))));
        assertEquals(0, Spawn.exitCode(waitFor(Spawn.spawn("/bin/sh", List.of("sh", "-c", "true")))));
        int sleeper = Spawn.spawn("/bin/sh", List.of("sh", "-c", "exec sleep 30"));
        assertEquals(-1, Spawn.tryWait(sleeper), "still running");
        Sched.kill(sleeper, Sched.SIGKILL);
        assertEquals(128 + Sched.SIGKILL, Spawn.exitCode(waitFor(sleeper)));
    }

    @Test
    void pidfdBecomesReadableWhenTheChildEnds() throws Exception {
        int pid = Spawn.spawn("/bin/sh", List.of("sh", "-c", "sleep 0.2"));
        int fd = Spawn.pidfd(pid);
        if (fd < 0) {
            Spawn.tryWait(pid);
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(fd >= 0, "no pidfd_open here (Linux < 5.3 or a seccomp filter)");
        try {
            Poll poll = new Poll(new int[] {fd}, Poll.POLLIN);
            assertEquals(0, poll.poll(10), "running");
            assertEquals(1, poll.poll(10_000), "ended");
            assertEquals(0, Spawn.exitCode(Spawn.tryWait(pid)));
        } finally {
            Fd.close(fd);
        }
    }

    /** The argument vector reaches the child byte for byte (spaces, quotes, non-ASCII, empty). */
    @Test
    void argumentsArriveUnchanged(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("args");
        List<String> args = List.of("a b", "'q'", "\"dq\"", "", "größe", "$HOME");
        List<String> argv = new java.util.ArrayList<>(List.of("sh", "-c",
                "for a in \"$@\"; do printf '%s\\n' \"$a\"; done > \"$0\"", out.toString()));
        argv.addAll(args);
        assertEquals(0, Spawn.exitCode(waitFor(Spawn.spawn("/bin/sh", argv))));
        assertEquals(args, Files.readAllLines(out));
    }

    private static long sigIgn(String status) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("SigIgn:\t(\\p{XDigit}+)").matcher(status);
        assertTrue(m.find(), status);
        // glibc's posix_spawn leaves its own two signals (32, 33) ignored, as in the JDK's children
        return Long.parseUnsignedLong(m.group(1), 16) & 0x7fffffffL;
    }

    /**
     * As perf's workload: no signal blocked, the signals ignored here still ignored (nohup's SIGHUP;
     * SIGTTIN stands in for it), no descriptor of ours but 0, 1 and 2.
     */
    @Test
    void childStartsUnblockedWithOurIgnoredSignalsAndOnlyTheStandardDescriptors() throws Exception {
        com.sun.jna.Function signal = com.sun.jna.Function.getFunction("c", "signal");
        int sigttin = 21;
        long previous = signal.invokeLong(new Object[] {sigttin, 1L}); // SIG_IGN
        int pid;
        try {
            pid = Spawn.spawn("/bin/sh", List.of("sh", "-c", "kill -STOP $$; exit 3"));
        } finally {
            signal.invokeLong(new Object[] {sigttin, previous});
        }
        try {
            Path proc = Path.of("/proc/" + pid);
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!Files.readString(proc.resolve("stat")).matches("\\d+ \\([^)]*\\) T .*\\s*")) {
                assertTrue(System.nanoTime() < deadline, "the shell did not stop itself");
                Thread.sleep(1);
            }
            String status = Files.readString(proc.resolve("status"));
            assertTrue(status.contains("SigBlk:\t0000000000000000"), status);
            long ours = sigIgn(Files.readString(Path.of("/proc/self/status")));
            assertEquals(ours | 1L << (sigttin - 1), sigIgn(status), status);
            TreeSet<Integer> fds = new TreeSet<>();
            try (Stream<Path> s = Files.list(proc.resolve("fd"))) {
                s.forEach(p -> fds.add(Integer.parseInt(p.getFileName().toString())));
            }
            assertEquals(new TreeSet<>(List.of(0, 1, 2)), fds);
        } finally {
            Sched.kill(pid, Sched.SIGKILL);
            waitFor(pid);
        }
    }

    @Test
    void aMissingProgramIsTheCallsError() {
        NativeException e = assertThrows(NativeException.class, () -> Spawn.spawn("/nonexistent/prog", List.of("prog")));
        assertEquals(Errno.ENOENT, e.errno(), e.getMessage());
    }

    /** Without posix_spawn_file_actions_addclosefrom_np (glibc < 2.34): our descriptors become close-on-exec. */
    @Test
    void descriptorsAbove2BecomeCloseOnExecWhereClosefromIsMissing(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path file = Files.writeString(tmp.resolve("open"), "x");
        Path real = file.toRealPath();
        try (java.io.FileInputStream in = new java.io.FileInputStream(file.toFile())) {
            String fd = null;
            for (String n : new java.io.File("/proc/self/fd").list()) {
                try {
                    if (Files.readSymbolicLink(Path.of("/proc/self/fd", n)).equals(real)) {
                        fd = n;
                    }
                } catch (java.io.IOException e) {
                    // the listing's own descriptor, closed by now
                }
            }
            assertTrue(fd != null, "the stream's descriptor");
            assertFalse(closeOnExec(fd), "the JDK opened it without O_CLOEXEC");
            Spawn.closeOnExecAbove2();
            assertTrue(closeOnExec(fd));
        }
    }

    private static boolean closeOnExec(String fd) throws java.io.IOException {
        String info = Files.readString(Path.of("/proc/self/fdinfo", fd));
        java.util.regex.Matcher flags = java.util.regex.Pattern.compile("flags:\\s+(\\d+)").matcher(info);
        assertTrue(flags.find(), info);
        return (Long.parseLong(flags.group(1), 8) & 02000000) != 0;
    }
}
