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
 */
public record SampleFilter(Set<String> comms, Set<Integer> pids, Set<Integer> tids, Set<Integer> cpus,
        Set<String> dsos, Set<String> symbols) {
    public static final SampleFilter NONE = new SampleFilter(null, null, null, null, null, null);

    /** Only the task filters ({@code --comms}, {@code --pid}, {@code --tid}); any may be null. */
    public static SampleFilter tasks(Set<String> comms, Set<Integer> pids, Set<Integer> tids) {
        return new SampleFilter(comms, pids, tids, null, null, null);
    }

    public SampleFilter withCpus(Set<Integer> cpus) {
        return new SampleFilter(comms, pids, tids, cpus, dsos, symbols);
    }

    public SampleFilter withDsos(Set<String> dsos) {
        return new SampleFilter(comms, pids, tids, cpus, dsos, symbols);
    }

    public SampleFilter withSymbols(Set<String> symbols) {
        return new SampleFilter(comms, pids, tids, cpus, dsos, symbols);
    }

    /** Whether a sample of this CPU is dropped. */
    boolean drops(int cpu) {
        return cpus != null && !cpus.contains(cpu);
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
