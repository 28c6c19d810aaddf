package dev.jperf.recorder.stat;

import dev.jperf.format.feature.CpuTopology;
import dev.jperf.recorder.Cpus;
import dev.jperf.recorder.Targets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * perf stat's rows in an aggregation mode other than the global one (util/stat-display.c's
 * print_counter, print_aggr, print_aggr_thread in 6.1): per CPU ({@code -A}) and per thread each
 * event's rows one after the other (threads by count, largest first), per core, die, socket or
 * node each id's events together. A topology id's "cpus" counts its CPUs up to the first one whose
 * counter did not run, which makes the whole id not counted (aggr_cb), as perf prints it.
 */
final class Aggregation {
    /** The id printed before a row: a CPU number, {@code comm-tid}, or S/D/C/N ids with their CPUs summed. */
    record Id(Aggr mode, String label, int nr) {}

    /** One row: event {@code event}'s values (raw, summed) for {@code id}. */
    record Cell(int event, Id id, CounterValues values) {}

    /** Each event's values per fd, with the CPU and thread of each (as {@link Counters#readEach}). */
    record Readings(CounterValues[][] values, int[][] cpus, int[][] threads) {
        static Readings of(Counters c) {
            CounterValues[][] v = c.readEach();
            int[][] cpus = new int[v.length][];
            int[][] threads = new int[v.length][];
            for (int e = 0; e < v.length; e++) {
                cpus[e] = c.cpus(e);
                threads[e] = c.threads(e);
            }
            return new Readings(v, cpus, threads);
        }

        /** What was counted since {@code last} (null: since the start). */
        Readings minus(Readings last) {
            if (last == null) {
                return this;
            }
            CounterValues[][] d = new CounterValues[values.length][];
            for (int e = 0; e < values.length; e++) {
                d[e] = new CounterValues[values[e].length];
                for (int k = 0; k < d[e].length; k++) {
                    d[e][k] = values[e][k].minus(last.values[e][k]);
                }
            }
            return new Readings(d, cpus, threads);
        }
    }

    private final Aggr mode;
    private final int[] cpus;
    private final int[] threads;
    /** --per-thread over every thread of the machine: threads that counted nothing are left out (as perf) */
    private final boolean skipIdleThreads;
    private final Map<Integer, String> comms = new HashMap<>();

    /**
     * @param cpus    the CPUs counted on ({@code -1}: any)
     * @param threads the threads counted ({@code -1}: any); their names are read now, as perf reads
     *                its thread map's at the start
     */
    Aggregation(Aggr mode, int[] cpus, int[] threads, boolean skipIdleThreads) {
        this.mode = mode;
        this.cpus = cpus.clone();
        this.threads = threads.clone();
        this.skipIdleThreads = skipIdleThreads;
        if (mode == Aggr.THREAD) {
            for (int tid : threads) {
                comms.put(tid, Targets.comm(tid));
            }
        }
    }

    Aggr mode() {
        return mode;
    }

    /** The rows in perf's order. */
    List<Cell> rows(int events, Readings r) {
        List<Cell> rows = new ArrayList<>();
        switch (mode) {
            case NONE -> {
                for (int e = 0; e < events; e++) {
                    for (int cpu : cpus) {
                        rows.add(new Cell(e, new Id(mode, Integer.toString(cpu), 1), sum(r, e, cpu, Integer.MIN_VALUE)));
                    }
                }
            }
            case THREAD -> {
                for (int e = 0; e < events; e++) {
                    List<Cell> cells = new ArrayList<>();
                    for (int tid : threads) {
                        CounterValues v = sum(r, e, Integer.MIN_VALUE, tid);
                        if (skipIdleThreads && v.val() == 0) {
                            continue;
                        }
                        Cell c = new Cell(e, new Id(mode, comms.get(tid) + "-" + tid, 1), v);
                        // largest count first (cmp_val), insertion keeps ties in thread order
                        int k = cells.size();
                        while (k > 0 && Long.compareUnsigned(cells.get(k - 1).values().val(), v.val()) < 0) {
                            k--;
                        }
                        cells.add(k, c);
                    }
                    rows.addAll(cells);
                }
            }
            default -> {
                for (Map.Entry<Long, List<Integer>> unit : units().entrySet()) {
                    for (int e = 0; e < events; e++) {
                        rows.add(topologyCell(r, e, unit.getKey(), unit.getValue()));
                    }
                }
            }
        }
        return rows;
    }

    /** aggr_cb: the id's CPUs summed in order until one did not count, which makes the id not counted. */
    private Cell topologyCell(Readings r, int e, long key, List<Integer> unitCpus) {
        CounterValues sum = CounterValues.ZERO;
        int nr = 0;
        for (int cpu : unitCpus) {
            nr++;
            CounterValues v = sum(r, e, cpu, Integer.MIN_VALUE);
            if (v.ena() == 0 || v.run() == 0) {
                sum = new CounterValues(sum.val() + v.val(), 0, 0);
                break;
            }
            sum = sum.plus(v);
        }
        return new Cell(e, new Id(mode, label(key), nr), sum);
    }

    /** Event {@code e}'s values on {@code cpu} and {@code tid} ({@code MIN_VALUE}: any), summed. */
    private static CounterValues sum(Readings r, int e, int cpu, int tid) {
        CounterValues s = CounterValues.ZERO;
        CounterValues[] v = r.values()[e];
        for (int k = 0; k < v.length; k++) {
            if ((cpu == Integer.MIN_VALUE || r.cpus()[e][k] == cpu) && (tid == Integer.MIN_VALUE || r.threads()[e][k] == tid)) {
                s = s.plus(v[k]);
            }
        }
        return s;
    }

    /** The CPUs by topology id, ids in perf's order (socket, die, core; node), CPUs in the order counted. */
    private TreeMap<Long, List<Integer>> units() {
        TreeMap<Long, List<Integer>> units = new TreeMap<>();
        for (int cpu : cpus) {
            units.computeIfAbsent(key(cpu), k -> new ArrayList<>()).add(cpu);
        }
        return units;
    }

    /** The id of {@code cpu}'s core, die, socket or node, packed to sort as perf's aggr_cpu_id__cmp (-1 first). */
    private long key(int cpu) {
        if (mode == Aggr.NODE) {
            return Cpus.node(cpu) + 1L;
        }
        CpuTopology.CpuId id = Cpus.id(cpu);
        long socket = id.socketId() + 1L;
        long die = mode == Aggr.SOCKET ? 0 : id.dieId() + 1L;
        long core = mode == Aggr.CORE ? id.coreId() + 1L : 0;
        return socket << 42 | die << 21 | core;
    }

    private String label(long key) {
        if (mode == Aggr.NODE) {
            return "N" + (key - 1);
        }
        long socket = (key >>> 42) - 1;
        long die = ((key >>> 21) & 0x1FFFFF) - 1;
        long core = (key & 0x1FFFFF) - 1;
        return switch (mode) {
            case CORE -> "S" + socket + "-D" + die + "-C" + core;
            case DIE -> "S" + socket + "-D" + die;
            default -> "S" + socket;
        };
    }
}
