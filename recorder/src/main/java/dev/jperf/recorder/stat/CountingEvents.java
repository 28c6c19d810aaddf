package dev.jperf.recorder.stat;

import static dev.jperf.format.header.PerfEventAttr.*;

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
 * kept, unsupported: perf prints {@code <not supported>} for it.
 */
final class CountingEvents implements Counters {
    static final long STAT_READ_FORMAT = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    /** value, time_enabled, time_running */
    private static final int READ_SIZE = 24;

    private final List<StatEvent> events = new ArrayList<>();
    private final List<int[]> fds = new ArrayList<>();
    /** per event, the CPU and the thread each fd counts on ({@code -1}: any), in the order of its fds */
    private final List<int[]> fdCpus = new ArrayList<>();
    private final List<int[]> fdThreads = new ArrayList<>();

    private final boolean inherit;

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
        CountingEvents c = new CountingEvents(inherit);
        try {
            for (EventSpec spec : specs) {
                c.openOne(spec, cpus, threads, enableOnExec);
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
        ByteBuffer attr = ByteBuffer.allocate(PERF_ATTR_SIZE_VER7).order(ByteOrder.LITTLE_ENDIAN);
        attr.putInt(TYPE, spec.type());
        attr.putInt(SIZE, PERF_ATTR_SIZE_VER7);
        attr.putLong(CONFIG, spec.config());
        attr.putLong(READ_FORMAT, STAT_READ_FORMAT);
        attr.putLong(FLAGS, FLAG_DISABLED | (inherit ? FLAG_INHERIT : 0) | spec.excludeFlags()
                | ((long) spec.preciseIp() << PRECISE_IP_SHIFT) | (enableOnExec ? FLAG_ENABLE_ON_EXEC : 0));
        List<Integer> opened = new ArrayList<>();
        List<Integer> onCpu = new ArrayList<>();
        List<Integer> onThread = new ArrayList<>();
        try {
            for (int cpu : cpus) {
                for (int tid : threads) {
                    try {
                        opened.add(PerfEventOpen.open(attr.duplicate().order(ByteOrder.LITTLE_ENDIAN), tid, cpu, -1,
                                PERF_FLAG_FD_CLOEXEC, spec.name()));
                        onCpu.add(cpu);
                        onThread.add(tid);
                    } catch (NativeException e) {
                        if (e.errno() == Errno.ESRCH && tid != -1) {
                            continue; // the thread exited meanwhile
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
        if (opened.isEmpty()) {
            throw new StatException("no thread left to count: every target thread has exited");
        }
        events.add(StatEvent.of(spec, true));
        fds.add(StatSession.toArray(opened));
        fdCpus.add(StatSession.toArray(onCpu));
        fdThreads.add(StatSession.toArray(onThread));
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
                out[i][k] = readOne(a[k], events.get(i).name());
            }
        }
        return out;
    }

    private static CounterValues readOne(int fd, String name) {
        ByteBuffer b = ByteBuffer.wrap(Fd.read(fd, READ_SIZE, name)).order(ByteOrder.LITTLE_ENDIAN);
        return b.remaining() == READ_SIZE ? new CounterValues(b.getLong(0), b.getLong(8), b.getLong(16)) : CounterValues.ZERO;
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
            for (int fd : fds.get(i)) {
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
