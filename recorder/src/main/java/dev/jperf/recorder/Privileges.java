package dev.jperf.recorder;

import dev.jperf.format.io.ProcFs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What this process may observe, as perf asks it: kernel.perf_event_paranoid and the effective
 * capabilities, and the one line a refused event is explained with (record and stat).
 */
public final class Privileges {
    public static final int CAP_SYS_PTRACE = 19;
    public static final int CAP_SYS_ADMIN = 21;
    public static final int CAP_PERFMON = 38;
    public static final int CAP_BPF = 39;

    private static final Path PARANOID = Path.of("/proc/sys/kernel/perf_event_paranoid");

    private Privileges() {
    }

    /** kernel.perf_event_paranoid as the file says it, or "unknown" (one read(2), as {@link #maxSampleRate}). */
    public static String paranoidText() {
        try {
            return ProcFs.readText(PARANOID);
        } catch (IOException e) {
            return "unknown";
        }
    }

    /**
     * kernel.perf_event_max_sample_rate, the highest frequency the kernel takes (it lowers it itself
     * when sampling takes too long); 0 when it cannot be read. Read by one read(2):
     * Files.readString returns only the first digit of these sysctl files on some kernels (6.18).
     */
    public static long maxSampleRate() {
        try {
            return Long.parseLong(ProcFs.readText(Path.of("/proc/sys/kernel/perf_event_max_sample_rate")));
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    /** kernel.perf_event_paranoid; 2 (the kernel's default) when it cannot be read. */
    public static int paranoid() {
        try {
            return Integer.parseInt(paranoidText());
        } catch (NumberFormatException e) {
            return 2;
        }
    }

    /** Whether capability {@code cap} is effective (CapEff of /proc/self/status); true if that cannot be read. */
    public static boolean capable(int cap) {
        return anyCapable(1L << cap);
    }

    /** Whether any capability of {@code mask} (1 << CAP_*) is effective; true if that cannot be read. */
    private static boolean anyCapable(long mask) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("CapEff:")) {
                    return (Long.parseUnsignedLong(line.substring(7).strip(), 16) & mask) != 0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // let the kernel say what is not allowed
        }
        return true;
    }

    /** perf_event_paranoid_check(1) (perf_event_can_profile_kernel): CAP_PERFMON or CAP_SYS_ADMIN, or paranoid at most 1. */
    public static boolean canProfileKernel() {
        return anyCapable(1L << CAP_PERFMON | 1L << CAP_SYS_ADMIN) || paranoid() <= 1;
    }

    /**
     * perf's explanation of an event refused with EACCES/EPERM (evsel__open_strerror) in one line:
     * what the current perf_event_paranoid level disallows and how to be allowed.
     *
     * @param firstThread the first thread it was opened for, -1 for every task of the CPUs
     * @param threads     how many threads it was opened for
     */
    public static String noPermission(String event, int firstThread, int threads) {
        String target = firstThread == -1 ? "the CPUs (system-wide)"
                : "thread " + firstThread + (threads == 1 ? "" : " (of " + threads + ")");
        String level = paranoidText();
        int p = paranoid();
        String limits = p >= 2 ? "no kernel profiling, no CPU-wide events"
                : p >= 1 ? "no CPU-wide events" : p >= 0 ? "no raw or ftrace function tracepoints" : "(almost) all allowed";
        return "access to performance monitoring and observability operations is limited: no permission to open event '"
                + event + "' on " + target + " (kernel.perf_event_paranoid = " + level + ": " + limits
                + "); lower /proc/sys/kernel/perf_event_paranoid, or run with CAP_PERFMON, CAP_SYS_PTRACE or"
                + " CAP_SYS_ADMIN (https://www.kernel.org/doc/html/latest/admin-guide/perf-security.html)";
    }
}
