package dev.jperf.report.stats;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.RecordStream;
import dev.jperf.format.feature.Feature;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.EventNames;
import dev.jperf.format.record.LostSamplesRecord;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.RecordType;
import dev.jperf.format.record.SampleRecord;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * {@code perf report --stats}: how many records of each type a file holds, and per event how
 * many samples (and samples lost). Counts every record as perf 6.1 does, those inside
 * COMPRESSED records too.
 */
public final class EventStats {
    private static final int TYPES = 256;

    private final long[] byType = new long[TYPES];
    private long total;
    private long[] samples = new long[0];
    private long[] lostSamples = new long[0];
    private List<EventDesc> events = List.of();
    private boolean auxtrace;
    private boolean pipe;

    /** Reads every record of {@code file}. */
    public static EventStats of(PerfDataFile file) {
        EventStats s = new EventStats();
        try (RecordStream rs = file.records()) {
            while (rs.hasNext()) {
                s.add(rs.next());
            }
        }
        s.finish(file);
        return s;
    }

    /** Counts one record. */
    public void add(PerfRecord r) {
        total++;
        int t = r.type();
        if (t >= 0 && t < TYPES) {
            byType[t]++;
        }
        if (r instanceof SampleRecord s) {
            samples = ensure(samples, s.event().index());
            samples[s.event().index()]++;
        } else if (r instanceof LostSamplesRecord l && l.sampleId().event() != null) {
            // perf adds the lost count (hists__inc_nr_lost_samples), not the record count
            int i = l.sampleId().event().index();
            lostSamples = ensure(lostSamples, i);
            lostSamples[i] += l.lost();
        }
    }

    /** Takes the final event list (names may change while reading: EVENT_UPDATE) and features. */
    public void finish(PerfDataFile file) {
        events = file.events();
        auxtrace = file.featureBits().contains(Feature.AUXTRACE.bit());
        pipe = file.isPipe();
        samples = ensure(samples, events.size() - 1);
        lostSamples = ensure(lostSamples, events.size() - 1);
    }

    public long total() {
        return total;
    }

    /** Records of one PERF_RECORD_* type. */
    public long count(int type) {
        return type >= 0 && type < TYPES ? byType[type] : 0;
    }

    /** Samples of event {@code index}. */
    public long samples(int index) {
        return index < samples.length ? samples[index] : 0;
    }

    /** perf's layout: "Aggregated stats:", one line per type seen, then "NAME stats:" per event with samples. */
    public void print(PrintStream out) {
        print(out, true);
    }

    /**
     * {@link #print(PrintStream)}; {@code skipEmpty} false (report's --no-skip-empty): every type
     * perf names and every event, none seen as well.
     */
    public void print(PrintStream out, boolean skipEmpty) {
        out.print("\nAggregated stats:");
        if (auxtrace) {
            out.print(" (excludes AUX area (e.g. instruction trace) decoded / synthesized events)");
        }
        out.print("\n");
        out.print(line("TOTAL", total, -1));
        for (int t = 1; t < TYPES; t++) {
            // unseen, only the types perf 6.1 names
            if ((byType[t] != 0 || !skipEmpty && t < RecordType.PERF_RECORD_HEADER_MAX_6_1) && RecordType.isKnown(t)) {
                out.print(line(RecordType.name(t), byType[t], total));
            }
        }
        for (EventDesc e : events) {
            long n = samples(e.index());
            long lost = e.index() < lostSamples.length ? lostSamples[e.index()] : 0;
            if (n == 0 && lost == 0 && skipEmpty) {
                continue;
            }
            // perf's stats mode ignores a pipe's HEADER_FEATURE and EVENT_UPDATE records: the names
            // it prints there are the ones derived from the attrs
            out.print((pipe ? EventNames.of(e.attr()) : e.name()) + " stats:\n");
            if (n != 0) {
                out.print(line("SAMPLE", n, -1));
            }
            if (lost != 0) {
                out.print(line("LOST_SAMPLES", lost, -1));
            }
        }
        out.flush();
    }

    /** perf: "%16s events: %10d" plus "  (%4.1f%%)" of the total for types. */
    private static String line(String name, long n, long of) {
        String s = String.format(Locale.ROOT, "%16s events: %10d", name, n);
        if (of > 0) {
            s += String.format(Locale.ROOT, "  (%4.1f%%)", 100.0 * n / of);
        }
        return s + "\n";
    }

    private static long[] ensure(long[] a, int index) {
        return index < a.length ? a : java.util.Arrays.copyOf(a, Math.max(index + 1, a.length * 2));
    }
}
