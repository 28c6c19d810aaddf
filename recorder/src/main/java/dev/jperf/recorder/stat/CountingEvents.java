package dev.jperf.recorder.stat;

import static dev.jperf.format.header.PerfEventAttr.*;

import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.record.ReadValues;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.Ioctl;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.nativeshim.PerfEventOpen;
import dev.jperf.recorder.EventSpec;
import dev.jperf.recorder.Privileges;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * perf stat's counters: per event one fd per CPU and thread, counting only (no sample period, no
 * ring buffer), read_format TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING, inherited by children, each
 * event its own group leader, opened disabled and enabled at the workload's exec or by ioctl (as
 * builtin-stat.c's create_perf_stat_counter). An event the machine lacks (the kernel answers
 * ENOENT, EOPNOTSUPP, ENODEV, EINVAL, ENXIO or ENOSYS, as for hardware events without a PMU) is
 * kept, unsupported: perf prints {@code <not supported>} for it. In an event group ({@code {a,b}},
 * {@code -g}) the members are opened into their leader's group (only the leader disabled and
 * enabled at exec); a group one of whose members the machine lacks is not counted at all, as perf
 * 6.1 prints it, and one whose leader it lacks is perf's error.
 */
final class CountingEvents implements Counters {
    static final long STAT_READ_FORMAT = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    /** value, time_enabled, time_running */
    private static final int READ_SIZE = ReadValues.readSize(STAT_READ_FORMAT);

    private final List<StatEvent> events = new ArrayList<>();
    private final List<int[]> fds = new ArrayList<>();
    /** per event, the CPU and the thread each fd counts on ({@code -1}: any), in the order of its fds */
    private final List<int[]> fdCpus = new ArrayList<>();
    private final List<int[]> fdThreads = new ArrayList<>();

    private final boolean inherit;
    /** per event: in a group one of whose members is not supported (read as never run) */
    private final List<Boolean> broken = new ArrayList<>();
    /** system-wide --per-thread: threads the kernel refuses are left out (the last refusal kept) */
    private boolean skipRefused;
    private NativeException refused;
    /** while opening: the index of the event whose group the one being opened joins, -1 for none */
    private int leader = -1;

    private CountingEvents(boolean inherit) {
        this.inherit = inherit;
    }

    /**
     * Opens every event on each of {@code cpus} x {@code threads} ({@code -1} for any). A thread
     * that exited meanwhile is skipped; no permission is a {@link StatException}.
     */
    static CountingEvents open(List<EventSpec> specs, int[] cpus, int[] threads, boolean enableOnExec) {
        return open(specs, cpus, threads, enableOnExec, true);
    }

    /**
     * As {@link #open(List, int[], int[], boolean)}, inherited by children or not: a BPF program
     * reads only events without inherit (perf_event_read_local), as stat -b's profilers do.
     */
    static CountingEvents open(List<EventSpec> specs, int[] cpus, int[] threads, boolean enableOnExec, boolean inherit) {
        int[] alone = new int[specs.size()];
        for (int i = 0; i < alone.length; i++) {
            alone[i] = i;
        }
        return open(specs, alone, cpus, threads, enableOnExec, inherit);
    }

    /** As {@link #open(List, int[], int[], boolean, boolean)}, event i in the group led by event {@code leaders[i]}. */
    static CountingEvents open(List<EventSpec> specs, int[] leaders, int[] cpus, int[] threads, boolean enableOnExec,
            boolean inherit) {
        return open(specs, leaders, cpus, threads, enableOnExec, inherit, false);
    }

    /**
     * As {@link #open(List, int[], int[], int[], boolean, boolean)}; {@code skipRefused}: threads the
     * kernel refuses are left out (perf's system-wide --per-thread), an error only when it refuses all.
     */
    static CountingEvents open(List<EventSpec> specs, int[] leaders, int[] cpus, int[] threads, boolean enableOnExec,
            boolean inherit, boolean skipRefused) {
        CountingEvents c = new CountingEvents(inherit);
        c.skipRefused = skipRefused;
        try {
            for (int i = 0; i < specs.size(); i++) {
                int leader = leaders[i];
                c.leader = leader == i ? -1 : leader;
                c.openOne(specs.get(i), cpus, threads, enableOnExec);
                c.broken.add(false);
                boolean grouped = leader != i || (i + 1 < specs.size() && leaders[i + 1] == i);
                if (leader == i && grouped && !c.events.get(i).supported()) {
                    throw StatException.unsupportedLeader(c.events.get(i).name());
                }
                if (leader != i && !c.events.get(i).supported()) {
                    for (int k = leader; k <= i; k++) {
                        c.broken.set(k, true);
                    }
                }
                if (leader != i && c.broken.get(leader)) {
                    c.broken.set(i, true);
                }
            }
            return c;
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private void openOne(EventSpec spec, int[] cpus, int[] threads, boolean enableOnExec) {
        try {
            openEvery(spec, cpus, threads, enableOnExec);
        } catch (StatException e) {
            EventSpec user = userOnly(spec, e);
            if (user == null) {
                throw e;
            }
            try {
                openEvery(user, cpus, threads, enableOnExec);
            } catch (StatException again) {
                // not even user space (e.g. per CPU): the event as asked for is what was refused
                throw userOnly(spec, again) != null ? e : again;
            }
        }
    }

    /** perf's evsel__fallback for EACCES ({@link EventSpec#userOnlyFallback}); null when it does not apply. */
    private static EventSpec userOnly(EventSpec spec, StatException e) {
        if (!(e.getCause() instanceof NativeException n) || n.errno() != Errno.EACCES || Privileges.paranoid() <= 1) {
            return null;
        }
        return spec.userOnlyFallback();
    }

    private void openEvery(EventSpec spec, int[] cpus, int[] threads, boolean enableOnExec) {
        ByteBuffer attr = PerfEventAttr.open(spec.type(), spec.config());
        attr.putLong(READ_FORMAT, STAT_READ_FORMAT);
        // a member follows its leader: only the leader starts disabled and is enabled at exec
        boolean isLeader = leader < 0;
        attr.putLong(FLAGS, (isLeader ? FLAG_DISABLED : 0) | (inherit ? FLAG_INHERIT : 0) | spec.excludeFlags()
                | ((long) spec.preciseIp() << PRECISE_IP_SHIFT) | (enableOnExec && isLeader ? FLAG_ENABLE_ON_EXEC : 0));
        List<Integer> opened = new ArrayList<>();
        List<Integer> onCpu = new ArrayList<>();
        List<Integer> onThread = new ArrayList<>();
        try {
            for (int cpu : cpus) {
                for (int tid : threads) {
                    try {
                        int groupFd = isLeader ? -1 : leaderFd(cpu, tid);
                        if (!isLeader && groupFd < 0) {
                            continue; // the leader's thread exited meanwhile
                        }
                        opened.add(PerfEventOpen.open(attr.duplicate().order(ByteOrder.LITTLE_ENDIAN), tid, cpu, groupFd,
                                PERF_FLAG_FD_CLOEXEC, spec.name()));
                        onCpu.add(cpu);
                        onThread.add(tid);
                    } catch (NativeException e) {
                        if (e.errno() == Errno.ESRCH && tid != -1) {
                            continue; // the thread exited meanwhile
                        }
                        if (skipRefused && tid != -1 && (e.errno() == Errno.EACCES || e.errno() == Errno.EPERM)) {
                            // system-wide --per-thread: perf leaves out the threads it may not count
                            refused = e;
                            continue;
                        }
                        throw e;
                    }
                }
            }
        } catch (NativeException e) {
            for (int fd : opened) {
                Fd.close(fd);
            }
            if (!unsupported(e.errno())) {
                throw StatException.of(e, spec.name(), threads[0], threads.length);
            }
            events.add(StatEvent.of(spec, false));
            fds.add(new int[0]);
            fdCpus.add(new int[0]);
            fdThreads.add(new int[0]);
            return;
        }
        if (opened.isEmpty() && refused != null) {
            NativeException why = refused;
            refused = null;
            throw StatException.of(why, spec.name(), threads[0], threads.length);
        }
        refused = null;
        if (opened.isEmpty()) {
            throw new StatException("no thread left to count: every target thread has exited");
        }
        events.add(StatEvent.of(spec, true));
        fds.add(StatSession.toArray(opened));
        fdCpus.add(StatSession.toArray(onCpu));
        fdThreads.add(StatSession.toArray(onThread));
    }

    /** The fd of the current group leader on {@code cpu} and {@code tid}, -1 when it has none there. */
    private int leaderFd(int cpu, int tid) {
        int[] a = fds.get(leader);
        for (int k = 0; k < a.length; k++) {
            if (fdCpus.get(leader)[k] == cpu && fdThreads.get(leader)[k] == tid) {
                return a[k];
            }
        }
        return -1;
    }

    /** What builtin-stat.c's stat_handle_error takes for "this event is not supported here". */
    static boolean unsupported(int errno) {
        return errno == Errno.ENOENT || errno == Errno.EOPNOTSUPP || errno == Errno.ENODEV || errno == Errno.EINVAL
                || errno == Errno.ENXIO || errno == Errno.ENOSYS;
    }

    @Override
    public List<StatEvent> events() {
        return events;
    }

    /** The fds of event {@code event}, one per CPU and thread in the order opened (none when unsupported). */
    int[] fds(int event) {
        return fds.get(event).clone();
    }

    /** The CPU each fd of event {@code event} counts on ({@code -1}: any), as {@link #fds}. */
    @Override
    public int[] cpus(int event) {
        return fdCpus.get(event);
    }

    /** The thread each fd of event {@code event} counts ({@code -1}: any), as {@link #fds}. */
    @Override
    public int[] threads(int event) {
        return fdThreads.get(event);
    }

    /** Each event's values per fd (raw, unscaled), in the order of {@link #cpus}; none for an unsupported one. */
    @Override
    public CounterValues[][] readEach() {
        CounterValues[][] out = new CounterValues[events.size()][];
        for (int i = 0; i < out.length; i++) {
            int[] a = fds.get(i);
            out[i] = new CounterValues[a.length];
            for (int k = 0; k < a.length; k++) {
                out[i][k] = broken.get(i) ? CounterValues.ZERO : readOne(a[k], events.get(i).name());
            }
        }
        return out;
    }

    private static CounterValues readOne(int fd, String name) {
        byte[] got = Fd.read(fd, READ_SIZE, name);
        if (got.length != READ_SIZE) {
            return CounterValues.ZERO;
        }
        ReadValues v = ReadValues.fromRead(got, STAT_READ_FORMAT);
        return new CounterValues(v.values()[0], v.timeEnabled(), v.timeRunning());
    }

    /** Each event's values summed over its fds (raw, unscaled: perf's AGGR_GLOBAL); null for an unsupported one. */
    @Override
    public CounterValues[] read() {
        CounterValues[] out = new CounterValues[events.size()];
        for (int i = 0; i < out.length; i++) {
            if (!events.get(i).supported()) {
                continue;
            }
            CounterValues sum = CounterValues.ZERO;
            for (int fd : broken.get(i) ? new int[0] : fds.get(i)) {
                sum = sum.plus(readOne(fd, events.get(i).name()));
            }
            out[i] = sum;
        }
        return out;
    }

    @Override
    public void enable() {
        for (int[] a : fds) {
            for (int fd : a) {
                Ioctl.enable(fd);
            }
        }
    }

    @Override
    public void disable() {
        for (int[] a : fds) {
            for (int fd : a) {
                try {
                    Ioctl.disable(fd);
                } catch (NativeException e) {
                    // the task is gone: its event no longer counts
                }
            }
        }
    }

    @Override
    public void close() {
        for (int[] a : fds) {
            for (int fd : a) {
                Fd.close(fd);
            }
        }
        fds.clear();
    }
}
