package dev.jperf.recorder.stat;

import static dev.jperf.format.header.PerfEventAttr.*;

import java.util.HashMap;
import java.util.Map;

/**
 * perf's runtime_stat and perf_stat__print_shadow_stats (util/stat-shadow.c, 6.1) for the
 * events jperf names: each counted event that is the base of another's metric (the clocks'
 * nanoseconds, cycles, branches, cache references) is recorded per context (its exclude bits),
 * then each row's metric derived from them: a clock's CPUs utilized over the wall time, cycles'
 * GHz, instructions per cycle, the share of branches missed and of cache references missed, the
 * idle cycles of a stalled-cycles event, else a rate per second of the clock.
 */
final class ShadowStats {
    /** The bases perf keeps (enum stat_type), by what counts them. */
    private enum Base { NSECS, CYCLES, BRANCHES, CACHEREFS, STALLED_FRONT, STALLED_BACK }

    private final Map<String, Stats> bases = new HashMap<>();
    private final double wallNs;

    /** @param wallNs the elapsed (mean) time, or the interval's length, that CPUs utilized divides by */
    ShadowStats(double wallNs) {
        this.wallNs = wallNs;
    }

    /** perf_stat__update_shadow_stats: {@code count} of a counted event (scaled, before its unit's scale). */
    void update(StatEvent e, double count) {
        Base b = e.clock() ? Base.NSECS : baseOf(e);
        if (b != null) {
            bases.computeIfAbsent(b + "/" + e.context(), k -> new Stats()).update(count);
        }
    }

    private static Base baseOf(StatEvent e) {
        if (e.type() != PERF_TYPE_HARDWARE) {
            return null;
        }
        return switch ((int) e.config()) {
            case PERF_COUNT_HW_CPU_CYCLES -> Base.CYCLES;
            case PERF_COUNT_HW_BRANCH_INSTRUCTIONS -> Base.BRANCHES;
            case PERF_COUNT_HW_CACHE_REFERENCES -> Base.CACHEREFS;
            case PERF_COUNT_HW_STALLED_CYCLES_FRONTEND -> Base.STALLED_FRONT;
            case PERF_COUNT_HW_STALLED_CYCLES_BACKEND -> Base.STALLED_BACK;
            default -> null;
        };
    }

    private Stats base(Base b, StatEvent e) {
        return bases.get(b + "/" + e.context());
    }

    private double avg(Base b, StatEvent e) {
        Stats s = base(b, e);
        return s == null ? 0 : s.avg();
    }

    private boolean has(Base b, StatEvent e) {
        Stats s = base(b, e);
        return s != null && s.count() != 0;
    }

    /** The metric of a counted row whose count is {@code count} ({@code value}: times its scale). */
    Metric metric(StatEvent e, double count, double value) {
        boolean hw = e.type() == PERF_TYPE_HARDWARE;
        if (hw && e.config() == PERF_COUNT_HW_INSTRUCTIONS) {
            double cycles = avg(Base.CYCLES, e);
            // (stalled cycles per insn, a second line where stalled-cycles events are counted: not shown)
            return cycles != 0 ? new Metric("%7.2f ", "insn per cycle", count / cycles)
                    : new Metric(null, "insn per cycle", 0);
        }
        if (hw && e.config() == PERF_COUNT_HW_BRANCH_MISSES) {
            if (!has(Base.BRANCHES, e)) {
                return new Metric(null, "of all branches", 0);
            }
            double branches = avg(Base.BRANCHES, e);
            return new Metric("%7.2f%%", "of all branches", branches != 0 ? count / branches * 100.0 : 0);
        }
        if (hw && e.config() == PERF_COUNT_HW_CACHE_MISSES) {
            double refs = avg(Base.CACHEREFS, e);
            return has(Base.CACHEREFS, e) ? new Metric("%8.3f %%", "of all cache refs", refs != 0 ? count * 100 / refs : 0)
                    : new Metric(null, "of all cache refs", 0);
        }
        if (hw && (e.config() == PERF_COUNT_HW_STALLED_CYCLES_FRONTEND
                || e.config() == PERF_COUNT_HW_STALLED_CYCLES_BACKEND)) {
            double cycles = avg(Base.CYCLES, e);
            return new Metric("%7.2f%%", e.config() == PERF_COUNT_HW_STALLED_CYCLES_FRONTEND ? "frontend cycles idle"
                    : "backend cycles idle", cycles != 0 ? count / cycles * 100.0 : 0);
        }
        if (hw && e.config() == PERF_COUNT_HW_CPU_CYCLES) {
            double ns = avg(Base.NSECS, e);
            return ns != 0 ? new Metric("%8.3f", "GHz", count / ns) : new Metric(null, "Ghz", 0);
        }
        if (e.clock()) {
            return wallNs != 0 ? new Metric("%8.3f", "CPUs utilized", value / (wallNs * e.scale()))
                    : new Metric(null, "CPUs utilized", 0);
        }
        if (has(Base.NSECS, e)) {
            double ns = avg(Base.NSECS, e);
            return Metric.perSecond(ns != 0 ? 1e9 * count / ns : 0);
        }
        return Metric.NONE;
    }
}
