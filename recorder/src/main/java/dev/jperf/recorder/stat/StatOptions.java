package dev.jperf.recorder.stat;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@code jperf stat} was asked to do, in perf stat's terms.
 *
 * @param events     {@code -e} names (comma lists allowed); empty: perf's default set
 * @param allCpus    {@code -a}
 * @param cpus       {@code -C} as given (null: not given)
 * @param pids       {@code -p} as given (null: not given)
 * @param tids       {@code -t} as given (null: not given)
 * @param bpfIds     {@code -b} as given (null: not given): count BPF programs instead of events
 * @param command    the workload after {@code --}
 * @param intervalMs {@code -I}: print counts every so many milliseconds (0: only at the end)
 * @param intervalCount {@code --interval-count}: print that many intervals, then no more (0: until the end)
 * @param repeat     {@code -r}: run the command this many times, print means and their spread
 * @param csvSeparator {@code -x} (null: not given)
 * @param json       {@code -j} / {@code --json}
 * @param output     {@code -o} (null: stderr, as perf)
 * @param timeoutMs  {@code --timeout}: stop after so many milliseconds (0: not given)
 * @param bpfCounters {@code --bpf-counters}: count through shared bperf leaders and a follower per event
 * @param bpfAttrMap {@code --bpf-attr-map}: the attr map's path (null: /sys/fs/bpf/perf_attr_map)
 * @param nullRun    {@code -n}: no default events, only the {@code -e} ones (none: just the elapsed time)
 * @param quiet      {@code --quiet}: print no counts, and no {@code -o} file (as perf's print_counters)
 * @param aggr       {@code -A}, {@code --per-thread}, {@code --per-core} ...: the rows per CPU, thread or id
 * @param delayMs    {@code -D}: count from so many ms after the start (negative: never; 0: from the start)
 * @param pre        {@code --pre}: a shell command run before each run (null: none)
 * @param post       {@code --post}: a shell command run after each run (null: none)
 * @param append     {@code --append}: {@code -o}/{@code --log-fd} output appended, not replacing
 * @param logFd      {@code --log-fd}: an inherited fd to print to instead of stderr (0: not given)
 * @param summary    {@code --summary}: the totals after the {@code -I} lines
 * @param csvSummary without {@code --no-csv-summary}: {@code -x}'s summary lines start with "summary"
 * @param detailed   how many {@code -d}: perf's detailed, very and very very detailed cache events added
 * @param allUser    {@code --all-user}: every event counts user space only (the names kept)
 * @param allKernel  {@code --all-kernel}: every event counts the kernel only (the names kept)
 * @param noInherit  {@code -i}: the workload's children are not counted
 * @param table      {@code --table}: each run's elapsed time listed before the mean (with {@code -r})
 * @param group      {@code -g}: the {@code -e} events in one group
 * @param intervalClear {@code --interval-clear}: the terminal cleared (on stdout) and the header printed before
 *                   each {@code -I} interval
 * @param scale      without {@code --no-scale}: a multiplexed count extrapolated to its enabled time
 * @param sync       {@code -S}: sync(2) before each run (after {@code --pre})
 */
public record StatOptions(List<String> events, boolean allCpus, String cpus, String pids, String tids, String bpfIds,
        List<String> command, long intervalMs, long intervalCount, int repeat, String csvSeparator, boolean json, Path output,
        long timeoutMs, boolean bpfCounters, Path bpfAttrMap, boolean nullRun, boolean quiet, Aggr aggr, int delayMs, String pre, String post, boolean append, int logFd,
        boolean summary, boolean csvSummary, int detailed, boolean allUser, boolean allKernel, boolean noInherit,
        boolean table, boolean group, boolean intervalClear, boolean scale, boolean sync) {

    public StatOptions {
        events = List.copyOf(events);
        command = List.copyOf(command);
        if (repeat < 1) {
            throw new IllegalArgumentException("-r " + repeat + ": the run count must be at least 1");
        }
        if (intervalMs < 0 || (intervalMs > 0 && intervalMs < 10)) {
            throw new IllegalArgumentException("-I " + intervalMs + ": the print interval must be >= 10 ms");
        }
        if (intervalCount < 0) {
            throw new IllegalArgumentException("--interval-count " + intervalCount + ": expected a count");
        }
        if (intervalCount > 0 && intervalMs == 0) {
            throw new IllegalArgumentException("interval-count option should be used together with interval-print.");
        }
        if (timeoutMs < 0 || (timeoutMs > 0 && timeoutMs < 10)) {
            throw new IllegalArgumentException("--timeout " + timeoutMs + ": the timeout must be >= 10 ms");
        }
        if (csvSeparator != null && json) {
            throw new IllegalArgumentException("-x and --json are mutually exclusive");
        }
        int targets = (allCpus || cpus != null ? 1 : 0) + (pids != null ? 1 : 0) + (tids != null ? 1 : 0)
                + (bpfIds != null ? 1 : 0);
        if (targets > 1) {
            throw new IllegalArgumentException("choose one target: -a/-C, -p, -t or -b");
        }
        if (repeat > 1 && command.isEmpty()) {
            throw new IllegalArgumentException("-r needs a command to repeat");
        }
        if (bpfIds != null && repeat > 1) {
            throw new IllegalArgumentException("-r is not supported with -b");
        }
        if (nullRun && bpfIds != null) {
            throw new IllegalArgumentException("-n is not supported with -b");
        }
        if (bpfCounters && bpfIds != null) {
            throw new IllegalArgumentException("--bpf-counters counts events, -b programs: choose one");
        }
        if (aggr != Aggr.GLOBAL && (bpfCounters || bpfIds != null)) {
            throw new IllegalArgumentException("-A and --per-* count per CPU or thread: not with --bpf-counters or -b");
        }
        if (targets == 0 && command.isEmpty() && aggr != Aggr.THREAD) {
            throw new IllegalArgumentException("nothing to count: give -a, -C, -p, -t, -b or a command");
        }
    }

    /** Counting per CPU for every task (perf's target__has_cpu). */
    public boolean systemWide() {
        return (allCpus || cpus != null) && !perThreadSystemWide();
    }

    /**
     * {@code --per-thread} without {@code -p} or {@code -t}: every thread of the machine, each on
     * its own (perf's system-wide per-thread target).
     */
    public boolean perThreadSystemWide() {
        return aggr == Aggr.THREAD && pids == null && tids == null;
    }
}
