package dev.jperf.report.export;

import com.google.perftools.profiles.ProfileProto.Function;
import com.google.perftools.profiles.ProfileProto.Label;
import com.google.perftools.profiles.ProfileProto.Line;
import com.google.perftools.profiles.ProfileProto.Location;
import com.google.perftools.profiles.ProfileProto.Mapping;
import com.google.perftools.profiles.ProfileProto.Profile;
import com.google.perftools.profiles.ProfileProto.Sample;
import com.google.perftools.profiles.ProfileProto.ValueType;
import com.google.protobuf.CodedOutputStream;
import dev.jperf.format.bpf.BpfSourceLine;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.report.annotate.BpfFunction;
import dev.jperf.report.annotate.BpfLineTable;
import dev.jperf.report.session.Frame;
import dev.jperf.report.symbol.Dso;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * {@code jperf report --pprof}: the stacks as a pprof profile (google/pprof's profile.proto,
 * gzipped), written field by field with protobuf-java's generated messages: one Sample per
 * distinct stack (and comm, its "comm" label) with two values per event, its samples and its
 * period in the event's unit; one Location per address (with its Mapping: range, file offset,
 * file name and build-id); one Function per symbol (name, DSO as file name). A JITed BPF address
 * is one Location whose Line is its BPF function at the source line its BTF line info gives (the
 * Function's file name is that line's file), as {@code jperf annotate} attributes it.
 */
final class PprofExport {
    private final Stacks stacks;
    private final BpfLineTable bpf;
    private final Map<String, Integer> strings = new HashMap<>();
    private final List<String> stringTable = new ArrayList<>();
    /** Location id by frame key (index), 0 = none yet. */
    private long[] locationIds = new long[1024];
    private final List<Location> locations = new ArrayList<>();
    private final Map<String, Long> functionIds = new HashMap<>();
    private final List<Function> functions = new ArrayList<>();
    private final Map<String, Long> mappingIds = new HashMap<>();
    private final List<Mapping> mappings = new ArrayList<>();

    PprofExport(Stacks stacks, BpfLineTable bpf) {
        this.stacks = stacks;
        this.bpf = bpf;
        string("");
    }

    /** Writes the profile, gzipped, to {@code out} (not closed). */
    void write(OutputStream out, String comment) throws IOException {
        GZIPOutputStream gz = new GZIPOutputStream(out, 1 << 16);
        CodedOutputStream co = CodedOutputStream.newInstance(gz, 1 << 16);
        StackTree t = stacks.tree();
        List<EventDesc> events = stacks.events();
        // the events that sampled (perf's tracking dummy samples nothing: no values for it)
        int[] sampled = sampledEvents();
        for (int e : sampled) {
            co.writeMessage(Profile.SAMPLE_TYPE_FIELD_NUMBER, ValueType.newBuilder()
                    .setType(string(sampled.length == 1 ? "samples" : eventName(events, e) + " samples"))
                    .setUnit(string("count")).build());
            co.writeMessage(Profile.SAMPLE_TYPE_FIELD_NUMBER, ValueType.newBuilder()
                    .setType(string(eventName(events, e))).setUnit(string(unit(events, e))).build());
        }
        long commKey = string("comm");
        int[] path = new int[64];
        for (int n = 1; n < t.size(); n++) {
            if (!t.hasSelf(n)) {
                continue;
            }
            int d = t.depth(n);
            if (path.length < d) {
                path = new int[d * 2];
            }
            t.path(n, path);
            Sample.Builder s = Sample.newBuilder();
            // the leaf first; path[0] is the comm
            for (int i = d - 1; i >= 1; i--) {
                s.addLocationId(location(path[i]));
            }
            for (int e : sampled) {
                s.addValue(t.selfSamples(n, e)).addValue(t.selfPeriod(n, e));
            }
            s.addLabel(Label.newBuilder().setKey(commKey).setStr(string(stacks.comm(path[0]))));
            co.writeMessage(Profile.SAMPLE_FIELD_NUMBER, s.build());
        }
        for (Mapping m : mappings) {
            co.writeMessage(Profile.MAPPING_FIELD_NUMBER, m);
        }
        for (Location l : locations) {
            co.writeMessage(Profile.LOCATION_FIELD_NUMBER, l);
        }
        for (Function f : functions) {
            co.writeMessage(Profile.FUNCTION_FIELD_NUMBER, f);
        }
        if (sampled.length > 0 && sampled[0] < events.size()) {
            int first = sampled[0];
            co.writeMessage(Profile.PERIOD_TYPE_FIELD_NUMBER, ValueType.newBuilder()
                    .setType(string(eventName(events, first))).setUnit(string(unit(events, first))).build());
            PerfEventAttr a = events.get(first).attr();
            if (!a.freq()) {
                co.writeInt64(Profile.PERIOD_FIELD_NUMBER, a.samplePeriod());
            }
            co.writeInt64(Profile.DEFAULT_SAMPLE_TYPE_FIELD_NUMBER, string(eventName(events, first)));
        }
        if (stacks.duration() > 0) {
            co.writeInt64(Profile.DURATION_NANOS_FIELD_NUMBER, stacks.duration());
        }
        co.writeInt64(Profile.COMMENT_FIELD_NUMBER, string(comment));
        for (String s : stringTable) {
            co.writeString(Profile.STRING_TABLE_FIELD_NUMBER, s);
        }
        co.flush();
        gz.finish();
        gz.flush();
    }

    private int[] sampledEvents() {
        int n = stacks.tree().events();
        int count = 0;
        for (int e = 0; e < n; e++) {
            if (stacks.totalSamples(e) > 0) {
                count++;
            }
        }
        int[] out = new int[count];
        for (int e = 0, i = 0; e < n; e++) {
            if (stacks.totalSamples(e) > 0) {
                out[i++] = e;
            }
        }
        return out;
    }

    private static String eventName(List<EventDesc> events, int e) {
        return e < events.size() ? events.get(e).name() : "event " + e;
    }

    /** The unit of an event's period: the software clocks count nanoseconds. */
    private static String unit(List<EventDesc> events, int e) {
        if (e < events.size()) {
            PerfEventAttr a = events.get(e).attr();
            if (a.type() == PerfEventAttr.PERF_TYPE_SOFTWARE
                    && (a.config() == PerfEventAttr.PERF_COUNT_SW_CPU_CLOCK || a.config() == PerfEventAttr.PERF_COUNT_SW_TASK_CLOCK)) {
                return "nanoseconds";
            }
        }
        return "count";
    }

    private long string(String s) {
        Integer i = strings.get(s);
        if (i == null) {
            i = stringTable.size();
            stringTable.add(s);
            strings.put(s, i);
        }
        return i;
    }

    /** The Location of a frame key, made on first use. */
    private long location(int key) {
        if (key >= locationIds.length) {
            locationIds = java.util.Arrays.copyOf(locationIds, Math.max(key + 1, locationIds.length * 2));
        }
        long id = locationIds[key];
        if (id != 0) {
            return id;
        }
        Frame f = stacks.frame(key);
        id = locations.size() + 1;
        Location.Builder l = Location.newBuilder().setId(id).setAddress(f.ip());
        if (f.map() != null) {
            l.setMappingId(mapping(f));
        }
        if (f.symbol() != null) {
            String name = f.symbol().name();
            Dso dso = f.dso();
            BpfFunction fn = dso != null && dso.kind() == Dso.Kind.BPF ? bpf.find(name, f.ip()) : null;
            int j = fn == null ? -1 : fn.lineAt(f.ip());
            if (j >= 0) {
                BpfSourceLine line = fn.lines()[j];
                l.addLine(Line.newBuilder().setFunctionId(function(name, line.file(), fn.lines()[0].line()))
                        .setLine(line.line()).setColumn(line.column()));
            } else {
                l.addLine(Line.newBuilder().setFunctionId(function(name, dso == null ? "" : dso.longName(), 0)));
            }
        }
        locations.add(l.build());
        locationIds[key] = id;
        return id;
    }

    private long function(String name, String file, int startLine) {
        String k = name + '\0' + file;
        Long id = functionIds.get(k);
        if (id == null) {
            id = (long) functions.size() + 1;
            functions.add(Function.newBuilder().setId(id).setName(string(name)).setSystemName(string(name))
                    .setFilename(string(file)).setStartLine(startLine).build());
            functionIds.put(k, id);
        }
        return id;
    }

    private long mapping(Frame f) {
        dev.jperf.report.session.Mapping m = f.map();
        Dso dso = m.dso();
        String k = Long.toHexString(m.start()) + ' ' + Long.toHexString(m.end()) + ' ' + Long.toHexString(m.pgoff())
                + ' ' + dso.id();
        Long id = mappingIds.get(k);
        if (id == null) {
            id = (long) mappings.size() + 1;
            String bid = dso.buildIdHex();
            Mapping.Builder b = Mapping.newBuilder().setId(id).setMemoryStart(m.start()).setMemoryLimit(m.end())
                    .setFileOffset(m.pgoff()).setFilename(string(dso.longName()))
                    // symbols are resolved here: pprof is not to look for the binaries again
                    .setHasFunctions(true);
            if (bid != null) {
                b.setBuildId(string(bid));
            }
            if (dso.kind() == Dso.Kind.BPF) {
                b.setHasFilenames(true).setHasLineNumbers(true);
            }
            mappings.add(b.build());
            mappingIds.put(k, id);
        }
        return id;
    }
}
