package dev.jperf.recorder.stat;

import static dev.jperf.format.header.PerfEventAttr.*;

import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.NativeException;
import dev.jperf.recorder.EventSpec;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code jperf stat --bpf-counters}: perf's bperf. Each event is read by a leader program shared
 * by every concurrent run through the attr map ({@link BperfAttrMap}, {@link BperfLeader}), and
 * counted for this run's target by a follower of its own ({@link BperfFollower}). An event the
 * machine lacks is {@code <not supported>}, as with plain counters.
 */
final class BperfCounters implements Counters {
    private final List<StatEvent> events = new ArrayList<>();
    private final List<BperfLeader> leaders = new ArrayList<>();
    /** per event, null where unsupported */
    private final List<BperfFollower> followers = new ArrayList<>();
    private final int[] cpus;

    private BperfCounters(int[] cpus) {
        this.cpus = cpus;
    }

    /**
     * Sets up every event under the attr map at {@code mapPath}: its leader (found or loaded),
     * then this run's follower filtered by {@code filter} over {@code keys}. {@code cpus} are the
     * online CPUs a new leader reads.
     */
    static BperfCounters open(List<EventSpec> specs, Path mapPath, BperfFollower.Filter filter, int[] keys, int[] cpus,
            int possibleCpus) {
        BperfCounters c = new BperfCounters(cpus);
        try (BperfAttrMap map = BperfAttrMap.lock(mapPath, PERF_ATTR_SIZE_VER7)) {
            for (EventSpec spec : specs) {
                BperfLeader leader;
                try {
                    leader = BperfLeader.obtain(map, mapPath, attr(spec), cpus, spec.name());
                } catch (StatException e) {
                    if (e.getCause() instanceof NativeException n && CountingEvents.unsupported(n.errno())) {
                        c.events.add(StatEvent.of(spec, false));
                        c.followers.add(null);
                        continue;
                    }
                    throw e;
                }
                c.leaders.add(leader);
                // as perf: the leader must run on demand, or the last switch's reading is all a read gets
                int err = leader.trigger(0);
                if (err < 0) {
                    throw new StatException("--bpf-counters: the kernel does not run the leader on demand"
                            + " (BPF_PROG_TEST_RUN of raw_tp: " + Errno.name(-err) + ": " + Errno.text(-err) + ")");
                }
                c.followers.add(BperfFollower.load(leader, filter, keys, possibleCpus));
                c.events.add(StatEvent.of(spec, true));
            }
            return c;
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /**
     * The perf_event_attr a leader counts {@code spec} with, and the attr map's key: counting
     * only, TOTAL_TIME_ENABLED|RUNNING, enabled from the start, not inherited (the kernel reads
     * no inherited event from BPF), perf 6.1's attr size.
     */
    static byte[] attr(EventSpec spec) {
        ByteBuffer a = PerfEventAttr.open(spec.type(), spec.config());
        a.putLong(READ_FORMAT, CountingEvents.STAT_READ_FORMAT);
        a.putLong(FLAGS, spec.excludeFlags());
        return a.array();
    }

    @Override
    public List<StatEvent> events() {
        return events;
    }

    /** bperf_sync_counters, then each follower's totals. */
    @Override
    public CounterValues[] read() {
        for (BperfLeader l : leaders) {
            for (int cpu : cpus) {
                l.trigger(cpu);
            }
        }
        CounterValues[] out = new CounterValues[followers.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = followers.get(i) == null ? null : followers.get(i).read();
        }
        return out;
    }

    @Override
    public void enable() {
        for (BperfFollower f : followers) {
            if (f != null) {
                f.enable();
            }
        }
    }

    @Override
    public void disable() {
        for (BperfFollower f : followers) {
            if (f != null) {
                f.disable();
            }
        }
    }

    /** Unloads this run's followers and lets go of the leaders (which stay, pinned). */
    @Override
    public void close() {
        for (BperfFollower f : followers) {
            if (f != null) {
                f.close();
            }
        }
        followers.clear();
        for (BperfLeader l : leaders) {
            l.close();
        }
        leaders.clear();
    }
}
