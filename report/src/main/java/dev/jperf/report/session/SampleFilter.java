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
 * @param symbols --symbols: the sample's symbol by name (the names that are not addresses)
 * @param timeStart --time: samples before it (ns) are dropped, as --cpu drops (0: no start)
 * @param timeStop --time: samples after it (ns) are dropped (0: no end)
 * @param timeRange --time as given (perf prints it as the report's "time slices"), or null
 * @param addrs --symbols given as hex numbers (perf's setup_addrlist): a sample at one of these
 *     addresses is kept, or null
 * @param addrRange --addr-range: a sample within this many bytes after one of {@code addrs} is kept too
 */
public record SampleFilter(Set<String> comms, Set<Integer> pids, Set<Integer> tids, Set<Integer> cpus,
        Set<String> dsos, Set<String> symbols, long timeStart, long timeStop, String timeRange, Set<Long> addrs,
        long addrRange) {
    public static final SampleFilter NONE = new SampleFilter(null, null, null, null, null, null);

    /** No time range. */
    public SampleFilter(Set<String> comms, Set<Integer> pids, Set<Integer> tids, Set<Integer> cpus,
            Set<String> dsos, Set<String> symbols) {
        this(comms, pids, tids, cpus, dsos, symbols, 0, 0, null, null, 0);
    }

    /** Only the task filters ({@code --comms}, {@code --pid}, {@code --tid}); any may be null. */
    public static SampleFilter tasks(Set<String> comms, Set<Integer> pids, Set<Integer> tids) {
        return new SampleFilter(comms, pids, tids, null, null, null);
    }

    public SampleFilter withCpus(Set<Integer> cpus) {
        return new SampleFilter(comms, pids, tids, cpus, dsos, symbols, timeStart, timeStop, timeRange, addrs, addrRange);
    }

    /** --comms (the report browser's thread zoom). */
    public SampleFilter withComms(Set<String> comms) {
        return new SampleFilter(comms, pids, tids, cpus, dsos, symbols, timeStart, timeStop, timeRange, addrs, addrRange);
    }

    public SampleFilter withDsos(Set<String> dsos) {
        return new SampleFilter(comms, pids, tids, cpus, dsos, symbols, timeStart, timeStop, timeRange, addrs, addrRange);
    }

    /**
     * --symbols: names, and addresses as perf's setup_addrlist takes them out of the list (what
     * strtoul reads whole as hex, "0x" or not, trailing blanks allowed).
     */
    public SampleFilter withSymbols(Set<String> symbols) {
        if (symbols == null) {
            return new SampleFilter(comms, pids, tids, cpus, dsos, null, timeStart, timeStop, timeRange, null, addrRange);
        }
        Set<String> names = new java.util.LinkedHashSet<>();
        Set<Long> a = new java.util.HashSet<>();
        for (String s : symbols) {
            Long v = hexAddress(s);
            if (v == null) {
                names.add(s);
            } else {
                a.add(v);
            }
        }
        return new SampleFilter(comms, pids, tids, cpus, dsos, names, timeStart, timeStop, timeRange,
                a.isEmpty() ? null : a, addrRange);
    }

    /** --addr-range: bytes after each --symbols address that also match. */
    public SampleFilter withAddrRange(long range) {
        return new SampleFilter(comms, pids, tids, cpus, dsos, symbols, timeStart, timeStop, timeRange, addrs, range);
    }

    /** strtoul(s, &end, 16) read to the end (blanks after it aside) without overflow; else null. */
    private static Long hexAddress(String s) {
        String t = s.stripLeading();
        boolean negative = false;
        if (t.startsWith("+") || t.startsWith("-")) {
            negative = t.charAt(0) == '-';
            t = t.substring(1);
        }
        if ((t.startsWith("0x") || t.startsWith("0X")) && t.length() > 2 && Character.digit(t.charAt(2), 16) >= 0) {
            t = t.substring(2);
        }
        int n = 0;
        while (n < t.length() && Character.digit(t.charAt(n), 16) >= 0) {
            n++;
        }
        if (n == 0 || !t.substring(n).isBlank()) {
            return null;
        }
        java.math.BigInteger v = new java.math.BigInteger(t.substring(0, n), 16);
        if (v.bitLength() > 64) {
            return null; // ERANGE
        }
        return negative ? -v.longValue() : v.longValue();
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
        return new SampleFilter(comms, pids, tids, cpus, dsos, symbols, start, stop, range, addrs, addrRange);
    }

    /**
     * perf script's --time with --reltime (perf_time__parse_for_ranges_reltime): both ends moved
     * by the first sample's time, an open end as well (perf's way: such a range keeps nothing).
     */
    public SampleFilter withTimeShifted(long firstSampleTime) {
        if (timeRange == null) {
            return this;
        }
        return new SampleFilter(comms, pids, tids, cpus, dsos, symbols, timeStart + firstSampleTime,
                timeStop + firstSampleTime, timeRange, addrs, addrRange);
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

    /** Whether a sample at this time is dropped by --time. */
    boolean dropsTime(long time) {
        return (timeStart != 0 && time < timeStart) || (timeStop != 0 && time > timeStop);
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
        if (symbols == null) {
            return false;
        }
        if (frame.symbol() != null && symbols.contains(frame.symbol().name())) {
            return false;
        }
        // perf: an address kept by the list needs a map (its unmapped address is the sample's)
        return addrs == null || frame.map() == null || !hasAddress(frame.ip());
    }

    private boolean hasAddress(long ip) {
        if (addrs.contains(ip)) {
            return true;
        }
        if (addrRange != 0) {
            for (long a : addrs) {
                if (Long.compareUnsigned(ip, a) >= 0 && Long.compareUnsigned(ip, a + addrRange) < 0) {
                    return true;
                }
            }
        }
        return false;
    }
}
