package dev.jperf.nativeshim;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        assertTrue(fd >= 0, "pidfd_open on this kernel");
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

    /** As perf's workload: no signal blocked or ignored, and no descriptor of ours but 0, 1 and 2. */
    @Test
    void childStartsWithDefaultSignalsAndOnlyTheStandardDescriptors() throws Exception {
        int pid = Spawn.spawn("/bin/sh", List.of("sh", "-c", "kill -STOP $$; exit 3"));
        try {
            Path proc = Path.of("/proc/" + pid);
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!Files.readString(proc.resolve("stat")).matches("\\d+ \\([^)]*\\) T .*\\s*")) {
                assertTrue(System.nanoTime() < deadline, "the shell did not stop itself");
                Thread.sleep(1);
            }
            String status = Files.readString(proc.resolve("status"));
            assertTrue(status.contains("SigBlk:\t0000000000000000"), status);
            // glibc's posix_spawn leaves its own two signals (32, 33) ignored, as in the JDK's children
            java.util.regex.Matcher ign = java.util.regex.Pattern.compile("SigIgn:\t(\\p{XDigit}+)").matcher(status);
            assertTrue(ign.find(), status);
            assertEquals(0, Long.parseUnsignedLong(ign.group(1), 16) & 0x7fffffffL, "a standard signal ignored: " + status);
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
}
