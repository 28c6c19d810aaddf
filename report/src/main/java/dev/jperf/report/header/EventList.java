package dev.jperf.report.header;

import dev.jperf.format.PerfDataException;
import dev.jperf.format.PerfDataFile;
import dev.jperf.format.feature.GroupDescs;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.PerfEventAttr;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code perf evlist}: the events of a file, one line each (builtin-evlist.c and evsel__fprintf of
 * perf 6.1): the name, then with {@code -v} every attr field, with {@code -F} the sample frequency or
 * period, with {@code -g} one line per group leader naming its members.
 */
public final class EventList {
    /** perf's perf_attr_details. */
    public record Details(boolean verbose, boolean freq, boolean group, boolean traceFields) {
    }

    private EventList() {
    }

    /**
     * Prints the file's events to {@code out}. Tracepoint fields need the file's tracing data, which
     * jperf does not decode: a tracepoint event with {@code --trace-fields} is refused.
     */
    public static void print(PerfDataFile file, Details details, PrintStream out) {
        List<EventDesc> events = file.events();
        Map<Integer, GroupDescs.Group> groups = new HashMap<>();
        if (details.group()) {
            file.features().groupDesc().ifPresent(g -> g.groups().forEach(d -> groups.putIfAbsent(d.leaderIdx(), d)));
        }
        boolean tracepoint = false;
        int member = 0;
        for (int i = 0; i < events.size(); i++) {
            EventDesc e = events.get(i);
            boolean isTracepoint = e.attr().type() == PerfEventAttr.PERF_TYPE_TRACEPOINT;
            tracepoint |= isTracepoint;
            if (details.group()) {
                if (member > 0) {
                    member--;
                    continue;
                }
                GroupDescs.Group g = groups.get(i);
                StringBuilder sb = new StringBuilder();
                if (g != null && Integer.toUnsignedLong(g.nrMembers()) > 1) {
                    member = Math.min(g.nrMembers() - 1, events.size() - 1 - i);
                    sb.append(GroupDescs.ANON_GROUP.equals(g.name()) ? "" : g.name()).append('{').append(e.name());
                    for (int m = 1; m <= member; m++) {
                        sb.append(',').append(events.get(i + m).name());
                    }
                    sb.append('}');
                } else {
                    sb.append(e.name());
                }
                out.println(sb);
                continue;
            }
            StringBuilder sb = new StringBuilder(e.name());
            String sep = ":";
            if (details.verbose()) {
                sb.append(AttrFormat.format(e.attr(), AttrFormat.ownSize(file, e.attr()), AttrFormat.Style.EVLIST));
                sep = ",";
            } else if (details.freq()) {
                sb.append(": ").append(e.attr().freq() ? "sample_freq" : "sample_period").append('=')
                        .append(Long.toUnsignedString(e.attr().samplePeriod()));
                sep = ",";
            }
            if (details.traceFields()) {
                if (isTracepoint) {
                    throw new PerfDataException(file.name() + ": --trace-fields: the fields of tracepoint " + e.name()
                            + " are in the file's tracing data, which jperf does not decode");
                }
                sb.append(sep).append(" (not a tracepoint)");
            }
            out.println(sb);
        }
        if (tracepoint && !details.traceFields()) {
            out.println("# Tip: use 'perf evlist --trace-fields' to show fields for tracepoint events");
        }
        out.flush();
    }
}
