package dev.jperf.report.session;

import dev.jperf.report.symbol.Dso;
import java.util.Set;

/**
 * perf report's sample filters. {@code --cpu} drops a sample before anything counts it; the
 * others mark it filtered (perf's al->filtered bits): it still counts in the totals and its
 * entries, but an entry it creates is not printed. A null set filters nothing.
 *
 * @param comms --comms
 * @param pids --pid
 * @param tids --tid
 * @param cpus --cpu
 * @param dsos --dsos: the sample's DSO by short or long name
 * @param symbols --symbols: the sample's symbol by name
 * @param timeStart --time: samples before it (ns) are dropped, as --cpu drops (0: no start)
 * @param timeStop --time: samples after it (ns) are dropped (0: no end)
 * @param timeRange --time as given (perf prints it as the report's "time slices"), or null
 */
public record SampleFilter(Set<String> comms, Set<Integer> pids, Set<Integer> tids, Set<Integer> cpus,
        Set<String> dsos, Set<String> symbols, long timeStart, long timeStop, String timeRange) {
    public static final SampleFilter NONE = new SampleFilter(null, null, null, null, null, null);

    /** No time range. */
    public SampleFilter(Set<String> comms, Set<Integer> pids, Set<Integer> tids, Set<Integer> cpus,
            Set<String> dsos, Set<String> symbols) {
        this(comms, pids, tids, cpus, dsos, symbols, 0, 0, null);
    }

    /** Only the task filters ({@code --comms}, {@code --pid}, {@code --tid}); any may be null. */
    public static SampleFilter tasks(Set<String> comms, Set<Integer> pids, Set<Integer> tids) {
        return new SampleFilter(comms, pids, tids, null, null, null);
    }

    public SampleFilter withCpus(Set<Integer> cpus) {
        return new SampleFilter(comms, pids, tids, cpus, dsos, symbols, timeStart, timeStop, timeRange);
    }

    public SampleFilter withDsos(Set<String> dsos) {
        return new SampleFilter(comms, pids, tids, cpus, dsos, symbols, timeStart, timeStop, timeRange);
    }

    public SampleFilter withSymbols(Set<String> symbols) {
        return new SampleFilter(comms, pids, tids, cpus, dsos, symbols, timeStart, timeStop, timeRange);
    }

    /**
     * --time {@code start,stop} as perf's perf_time__parse_str reads it: seconds with up to nine
     * decimals, either side empty for an open end; null: no range. perf's percent forms are refused.
     */
    public SampleFilter withTime(String range) {
        if (range == null) {
            return this;
        }
        int comma = range.indexOf(',');
        if (comma < 0 || range.indexOf(',', comma + 1) >= 0 || range.contains("%")) {
            throw new IllegalArgumentException("--time " + range + ": expected start,stop in seconds"
                    + " (e.g. 1018302.5,1018303), either may be empty");
        }
        long start = nanos(range.substring(0, comma), range);
        long stop = nanos(range.substring(comma + 1), range);
        if (stop != 0 && stop < start) {
            throw new IllegalArgumentException("--time " + range + ": the stop is before the start");
        }
        return new SampleFilter(comms, pids, tids, cpus, dsos, symbols, start, stop, range);
    }

    private static long nanos(String s, String range) {
        s = s.strip();
        if (s.isEmpty()) {
            return 0;
        }
        if (!s.matches("\\d{1,10}(\\.\\d{0,9})?")) {
            throw new IllegalArgumentException("--time " + range + ": '" + s + "' is not a time in seconds");
        }
        int dot = s.indexOf('.');
        long sec = Long.parseLong(dot < 0 ? s : s.substring(0, dot));
        String frac = dot < 0 ? "" : s.substring(dot + 1);
        long ns = frac.isEmpty() ? 0 : Long.parseLong((frac + "000000000").substring(0, 9));
        return sec * 1_000_000_000L + ns;
    }

    /** Whether a sample of this CPU at this time is dropped (--cpu, --time). */
    boolean drops(int cpu, long time) {
        return (cpus != null && !cpus.contains(cpu)) || (timeStart != 0 && time < timeStart)
                || (timeStop != 0 && time > timeStop);
    }

    /** perf's al->filtered for a sample of {@code thread} ({@code comm}) at {@code frame}. */
    boolean excludes(PerfThread thread, String comm, Frame frame) {
        if ((comms != null && !comms.contains(comm)) || (pids != null && !pids.contains(thread.pid()))
                || (tids != null && !tids.contains(thread.tid()))) {
            return true;
        }
        if (dsos != null) {
            // perf: no map or DSO is filtered; else the short name or the long name must be listed
            Dso d = frame.dso();
            if (d == null || !(dsos.contains(d.shortName()) || dsos.contains(d.longName()))) {
                return true;
            }
        }
        return symbols != null && (frame.symbol() == null || !symbols.contains(frame.symbol().name()));
    }
}
