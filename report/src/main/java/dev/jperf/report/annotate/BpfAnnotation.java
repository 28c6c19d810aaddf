package dev.jperf.report.annotate;

import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.bpf.BpfSourceLine;
import dev.jperf.format.header.EventDesc;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Samples inside JITed BPF code, per event, program, JITed function and line record. A sample
 * belongs to the function perf named it with (its KSYMBOL) when HEADER_BPF_PROG_INFO describes
 * that function at that address, and within it to the line record with the greatest JIT address
 * &lt;= ip. Samples in BPF ksymbols the file has no prog info for are counted per symbol name.
 */
public final class BpfAnnotation {
    /** Counts of one JITed function; {@code lineSamples[j]} belongs to {@code function.lines()[j]}. */
    public static final class FunctionHist {
        private final BpfFunction function;
        private final long[] lineSamples;
        private final long[] linePeriod;
        private long samples;
        private long period;
        private long beforeFirstLine;
        private final java.util.TreeMap<Long, long[]> byAddress = new java.util.TreeMap<>(Long::compareUnsigned);

        FunctionHist(BpfFunction function) {
            this.function = function;
            this.lineSamples = new long[function.lineAddrs().length];
            this.linePeriod = new long[function.lineAddrs().length];
        }

        public BpfFunction function() {
            return function;
        }

        public long samples() {
            return samples;
        }

        public long period() {
            return period;
        }

        public long lineSamples(int j) {
            return lineSamples[j];
        }

        public long linePeriod(int j) {
            return linePeriod[j];
        }

        /** Samples at addresses before the function's first line record (none when the JIT maps insn 0 to the start). */
        public long samplesWithoutLine() {
            return beforeFirstLine;
        }

        /** Samples per source line (file, line), lines in order of first appearance in the function's records. */
        public List<SourceLineCount> bySourceLine() {
            Map<String, SourceLineCount> m = new LinkedHashMap<>();
            BpfSourceLine[] lines = function.lines();
            for (int j = 0; j < lines.length; j++) {
                BpfSourceLine l = lines[j];
                String key = l.file() + '\0' + l.line();
                SourceLineCount c = m.get(key);
                m.put(key, c == null ? new SourceLineCount(l.file(), l.line(), l.text(), lineSamples[j], linePeriod[j])
                        : c.plus(lineSamples[j], linePeriod[j]));
            }
            List<SourceLineCount> out = new ArrayList<>(m.values());
            List<String> files = new ArrayList<>();
            out.forEach(c -> {
                if (!files.contains(c.file())) {
                    files.add(c.file());
                }
            });
            out.sort(Comparator.<SourceLineCount>comparingInt(c -> files.indexOf(c.file())).thenComparingInt(SourceLineCount::line));
            return out;
        }

        /** Samples and period at each sampled JIT address: {@code [samples, period]}, addresses ascending. */
        public java.util.NavigableMap<Long, long[]> byAddress() {
            return java.util.Collections.unmodifiableNavigableMap(byAddress);
        }

        void add(long ip, long p) {
            samples++;
            period += p;
            long[] c = byAddress.computeIfAbsent(ip, k -> new long[2]);
            c[0]++;
            c[1] += p;
            int j = function.lineAt(ip);
            if (j < 0) {
                beforeFirstLine++;
            } else {
                lineSamples[j]++;
                linePeriod[j] += p;
            }
        }
    }

    /** Samples of one source line of a function, summed over its line records. */
    public record SourceLineCount(String file, int line, String text, long samples, long period) {
        SourceLineCount plus(long s, long p) {
            return new SourceLineCount(file, line, text, samples + s, period + p);
        }
    }

    /** One program's functions (index order) under one event. */
    public static final class ProgramHist {
        private final BpfProgInfo prog;
        private final FunctionHist[] functions;

        ProgramHist(BpfProgInfo prog, FunctionHist[] functions) {
            this.prog = prog;
            this.functions = functions;
        }

        public BpfProgInfo prog() {
            return prog;
        }

        /** Every JITed function of the program, sampled or not, in jited_ksyms order. */
        public List<FunctionHist> functions() {
            return List.of(functions);
        }

        public long samples() {
            long n = 0;
            for (FunctionHist f : functions) {
                n += f.samples;
            }
            return n;
        }

        public long period() {
            long n = 0;
            for (FunctionHist f : functions) {
                n += f.period;
            }
            return n;
        }

        /** The program's name: BTF name of function 0, else prog_name. */
        public String name() {
            return functions[0].function.funcName();
        }
    }

    /** Samples in a BPF ksymbol without prog info (program gone before perf fetched it, pipe mode). */
    public record UnknownFunction(String ksym, long samples, long period) {
    }

    /** Everything counted for one event. */
    public static final class EventHist {
        private final EventDesc event;
        private final Map<BpfProgInfo, ProgramHist> programs = new IdentityHashMap<>();
        private final Map<String, long[]> unknown = new LinkedHashMap<>();

        EventHist(EventDesc event) {
            this.event = event;
        }

        public EventDesc event() {
            return event;
        }

        /** Programs with samples, most samples first (ties by program id). */
        public List<ProgramHist> programs() {
            List<ProgramHist> l = new ArrayList<>(programs.values());
            l.sort(Comparator.comparingLong(ProgramHist::samples).reversed()
                    .thenComparing(p -> Integer.toUnsignedLong(p.prog.id())));
            return l;
        }

        /** BPF ksymbols sampled without line info, most samples first. */
        public List<UnknownFunction> unknownFunctions() {
            List<UnknownFunction> l = new ArrayList<>();
            unknown.forEach((k, v) -> l.add(new UnknownFunction(k, v[0], v[1])));
            l.sort(Comparator.comparingLong(UnknownFunction::samples).reversed().thenComparing(UnknownFunction::ksym));
            return l;
        }
    }

    private final BpfLineTable table;
    private final Map<EventDesc, EventHist> events = new LinkedHashMap<>();

    public BpfAnnotation(BpfLineTable table) {
        this.table = table;
    }

    public BpfLineTable table() {
        return table;
    }

    /**
     * Counts one sample that perf names {@code ksym} (a KSYMBOL name); returns false when the
     * symbol is not JITed BPF code the file describes (then it is counted as an unknown function
     * only if {@code bpf} says it is BPF code).
     */
    public boolean add(EventDesc event, long ip, long period, String ksym, boolean bpf) {
        EventHist eh = events.computeIfAbsent(event, EventHist::new);
        BpfFunction f = table.find(ksym, ip);
        if (f == null) {
            if (bpf) {
                long[] c = eh.unknown.computeIfAbsent(ksym, k -> new long[2]);
                c[0]++;
                c[1] += period;
            }
            return false;
        }
        ProgramHist ph = eh.programs.computeIfAbsent(f.prog(), p -> new ProgramHist(p, functionsOf(p)));
        ph.functions[f.index()].add(ip, period);
        return true;
    }

    private FunctionHist[] functionsOf(BpfProgInfo p) {
        FunctionHist[] fs = new FunctionHist[p.subprogCount()];
        for (int i = 0; i < fs.length; i++) {
            fs[i] = new FunctionHist(table.function(p, i));
        }
        return fs;
    }

    /** Events that had BPF samples, in the order first seen. */
    public List<EventHist> events() {
        List<EventHist> l = new ArrayList<>();
        for (EventHist e : events.values()) {
            if (!e.programs.isEmpty() || !e.unknown.isEmpty()) {
                l.add(e);
            }
        }
        l.sort(Comparator.comparingInt(e -> e.event.index()));
        return l;
    }
}
