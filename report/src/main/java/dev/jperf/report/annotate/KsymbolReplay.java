package dev.jperf.report.annotate;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.RecordStream;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.record.KsymbolRecord;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.SampleRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Names the kernel samples that fall into JITed code registered by PERF_RECORD_KSYMBOL, applying
 * register/unregister records and samples in time order (equal times in file order), as perf's
 * ordered events and machine__process_ksymbol do. Only what annotate needs: the report session
 * keeps the whole machine state.
 */
final class KsymbolReplay {
    /** A sample inside a registered range, with the KSYMBOL name it had at its time. */
    interface Sink {
        void sample(EventDesc event, long ip, long period, String ksym, boolean bpf);
    }

    private record Ksym(long time, long seq, KsymbolRecord r) {
    }

    private record Sample(long time, long seq, EventDesc event, long ip, long period) {
    }

    private static final Comparator<Sample> SAMPLE_ORDER =
            Comparator.<Sample>comparingLong(s -> s.time + Long.MIN_VALUE).thenComparingLong(s -> s.seq);
    private static final Comparator<Ksym> KSYM_ORDER =
            Comparator.<Ksym>comparingLong(k -> k.time + Long.MIN_VALUE).thenComparingLong(k -> k.seq);

    private KsymbolReplay() {
    }

    /** Reads every record of {@code file} and reports each sample that lands in a live ksymbol. */
    static void run(PerfDataFile file, Sink sink) {
        List<Ksym> ksyms = new ArrayList<>();
        // candidates: kernel samples whose ip lies in some range ever registered (known at the end)
        long[] times = new long[1024];
        long[] ips = new long[1024];
        long[] periods = new long[1024];
        long[] seqs = new long[1024];
        EventDesc[] events = new EventDesc[1024];
        int n = 0;
        long seq = 0;
        try (RecordStream rs = file.records()) {
            while (rs.hasNext()) {
                PerfRecord r = rs.next();
                seq++;
                if (r instanceof SampleRecord s) {
                    if (s.cpumode() != PerfRecord.PERF_RECORD_MISC_KERNEL) {
                        continue;
                    }
                    if (n == times.length) {
                        int c = n * 2;
                        times = java.util.Arrays.copyOf(times, c);
                        ips = java.util.Arrays.copyOf(ips, c);
                        periods = java.util.Arrays.copyOf(periods, c);
                        seqs = java.util.Arrays.copyOf(seqs, c);
                        events = java.util.Arrays.copyOf(events, c);
                    }
                    times[n] = s.time();
                    ips[n] = s.ip();
                    periods[n] = s.period();
                    seqs[n] = seq;
                    events[n] = s.event();
                    n++;
                } else if (r instanceof KsymbolRecord k) {
                    ksyms.add(new Ksym(k.sampleId().time(), seq, k));
                }
            }
        }
        if (ksyms.isEmpty()) {
            return;
        }
        TreeMap<Long, Long> everRegistered = new TreeMap<>(Long::compareUnsigned);
        for (Ksym k : ksyms) {
            if (!k.r.unregister()) {
                everRegistered.merge(k.r.addr(), Integer.toUnsignedLong(k.r.len()), Math::max);
            }
        }
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (inAny(everRegistered, ips[i])) {
                samples.add(new Sample(times[i], seqs[i], events[i], ips[i], periods[i]));
            }
        }
        samples.sort(SAMPLE_ORDER);
        ksyms.sort(KSYM_ORDER);
        replay(ksyms, samples, sink);
    }

    /** Whether {@code ip} lies in one of the ranges (start -> longest len); ranges may overlap. */
    private static boolean inAny(TreeMap<Long, Long> ranges, long ip) {
        for (Map.Entry<Long, Long> e : ranges.headMap(ip, true).descendingMap().entrySet()) {
            if (Long.compareUnsigned(ip - e.getKey(), e.getValue()) < 0) {
                return true;
            }
            // BPF images are at most a few pages; stop once a range starts far below ip
            if (Long.compareUnsigned(ip - e.getKey(), 1L << 24) > 0) {
                return false;
            }
        }
        return false;
    }

    private record Live(long end, String name, boolean bpf) {
    }

    private static void replay(List<Ksym> ksyms, List<Sample> samples, Sink sink) {
        TreeMap<Long, Live> live = new TreeMap<>(Long::compareUnsigned);
        int k = 0;
        for (Sample s : samples) {
            while (k < ksyms.size() && before(ksyms.get(k), s)) {
                apply(live, ksyms.get(k++).r);
            }
            Map.Entry<Long, Live> e = live.floorEntry(s.ip);
            if (e != null && Long.compareUnsigned(s.ip, e.getValue().end) < 0) {
                sink.sample(s.event, s.ip, s.period, e.getValue().name, e.getValue().bpf);
            }
        }
    }

    private static boolean before(Ksym k, Sample s) {
        int c = Long.compareUnsigned(k.time, s.time);
        return c < 0 || (c == 0 && k.seq < s.seq);
    }

    /** machine__process_ksymbol_register / _unregister on the ranges alone. */
    private static void apply(TreeMap<Long, Live> live, KsymbolRecord r) {
        Map.Entry<Long, Live> e = live.floorEntry(r.addr());
        boolean hit = e != null && Long.compareUnsigned(r.addr(), e.getValue().end) < 0;
        if (r.unregister()) {
            if (hit) {
                live.remove(e.getKey());
            }
        } else if (!hit) {
            live.put(r.addr(), new Live(r.addr() + Integer.toUnsignedLong(r.len()), r.name(),
                    r.ksymType() == KsymbolRecord.PERF_RECORD_KSYMBOL_TYPE_BPF));
        }
    }
}
