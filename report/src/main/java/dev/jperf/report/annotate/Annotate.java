package dev.jperf.report.annotate;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.header.EventDesc;
import dev.jperf.report.session.Frame;
import dev.jperf.report.session.CurrentSample;
import dev.jperf.report.session.SampleFilter;
import dev.jperf.report.session.Session;
import dev.jperf.report.symbol.Dso;
import dev.jperf.report.symbol.Symbol;
import dev.jperf.report.symbol.SymbolResolver;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code jperf annotate}: functions of user-space ELF files disassembled with their samples per
 * instruction, as perf annotate --stdio prints them ({@link NativeAnnotation}), then samples inside
 * JITed BPF functions per BPF source line, from the line table perf stored in the file
 * (HEADER_BPF_PROG_INFO's line_info / jited_line_info with the strings of HEADER_BPF_BTF), so it
 * works offline, long after the programs are gone.
 */
public final class Annotate {
    /**
     * @param symbol only this function (KSYMBOL name, BTF function name) or program (name); null for all
     * @param json JSON instead of perf annotate's stdio layout
     * @param kallsyms --kallsyms (kernel symbols; they tell BPF programs from kernel functions), or null
     * @param buildIdDir --buildid-dir, or null for PERF_BUILDID_DIR or ~/.debug
     * @param filter the samples counted at all (-C/--cpu: perf drops the others before its totals too)
     */
    public record Options(String symbol, boolean json, Path kallsyms, Path buildIdDir, java.util.Set<String> dsos,
            String percentType, boolean asmRaw, Display display, SampleFilter filter) {
        public Options(String symbol, boolean json, Path kallsyms, Path buildIdDir, java.util.Set<String> dsos,
                String percentType, boolean asmRaw, Display display) {
            this(symbol, json, kallsyms, buildIdDir, dsos, percentType, asmRaw, display, SampleFilter.NONE);
        }

        public Options(String symbol, boolean json, Path kallsyms, Path buildIdDir) {
            this(symbol, json, kallsyms, buildIdDir, null, null, false, Display.DEFAULT);
        }

        public Options(String symbol, boolean json, Path kallsyms, Path buildIdDir, java.util.Set<String> dsos,
                String percentType, boolean asmRaw) {
            this(symbol, json, kallsyms, buildIdDir, dsos, percentType, asmRaw, Display.DEFAULT);
        }
    }

    /**
     * How native functions are shown, as perf annotate's options set it.
     *
     * @param source --source (perf's default): objdump -S, the source lines between the instructions
     * @param showNrSamples -n: each instruction's samples instead of its percent
     * @param showTotalPeriod --show-total-period: each instruction's period instead (perf refuses both)
     * @param percentLimit --percent-limit: functions whose share of their event's period is under it are not shown
     * @param symfs --symfs: the directory the files are looked up under, or null
     * @param printLine -l: each function's hot source lines summed and sorted above it, the
     *     srcline after each hot instruction
     * @param fullPaths -P/--full-paths: the header names the DSO by its long name (perf's dso->long_name)
     */
    public record Display(boolean source, boolean showNrSamples, boolean showTotalPeriod, double percentLimit, Path symfs,
            boolean printLine, boolean fullPaths) {
        public static final Display DEFAULT = new Display(true);

        public Display(boolean source, boolean showNrSamples, boolean showTotalPeriod, double percentLimit, Path symfs,
                boolean printLine) {
            this(source, showNrSamples, showTotalPeriod, percentLimit, symfs, printLine, false);
        }

        public Display(boolean source) {
            this(source, false, false, 0, null, false);
        }
    }


    /** A JITed BPF function's kernel name (a KSYMBOL that landed in the kernel map has a kernel DSO). */
    private static final Pattern BPF_PROG_NAME = Pattern.compile("bpf_prog_[0-9a-f]{16}(_.*)?");

    private Annotate() {
    }

    /**
     * Reads {@code file} through the report session (records in time order, KSYMBOL state) and
     * counts its samples in JITed BPF code by the symbol the session gives them, as perf names them.
     */
    public static BpfAnnotation annotate(PerfDataFile file, Path kallsyms, Path buildIdDir) {
        return annotate(file, new SymbolResolver(SymbolResolver.Options.defaults(kallsyms, null, buildIdDir)), null);
    }

    /**
     * As {@link #annotate(PerfDataFile, Path, Path)}, every sample also given to {@code natives} when not null.
     * The samples come through report's fast path ({@link Session#scan}: no record decoded, no object
     * per sample), which applies the side-band (KSYMBOL included) in time order as {@code run} does.
     */
    static BpfAnnotation annotate(PerfDataFile file, SymbolResolver resolver, NativeAnnotation natives) {
        return annotate(file, resolver, natives, SampleFilter.NONE);
    }

    private static BpfAnnotation annotate(PerfDataFile file, SymbolResolver resolver, NativeAnnotation natives,
            SampleFilter filter) {
        Session session = new Session(file, resolver, new Session.Options(false, filter));
        if (!file.isPipe()) {
            BpfLineTable table = BpfLineTable.of(file);
            BpfAnnotation a = new BpfAnnotation(table);
            // most kernel samples are in kernel functions BpfAnnotation.add would drop: what it
            // makes of a symbol (BPF, or named in the table) is known once, by the symbol's identity
            IdentityHashMap<Symbol, Boolean> counted = new IdentityHashMap<>();
            session.scan(s -> {
                Frame f = s.frame();
                if (s.cpumode() == PerfRecord.PERF_RECORD_MISC_KERNEL && f.symbol() != null && f.dso() != null) {
                    Boolean c = counted.get(f.symbol());
                    if (c == null) {
                        String name = f.symbol().name();
                        c = bpf(f) || table.names(name);
                        counted.put(f.symbol(), c);
                    }
                    if (c) {
                        a.add(s.event(), s.ip(), s.period(), f.symbol().name(), bpf(f));
                    }
                }
                if (natives != null) {
                    natives.add(s.event(), s.period(), f);
                }
            }, false);
            return a;
        }
        // a stream's BPF_PROG_INFO / BPF_BTF may come as programs are captured (jperf record -o -):
        // the line table is complete only at its end, so the samples in the kernel are kept till then
        List<Object[]> kept = new ArrayList<>();
        session.scan(s -> {
            count(s, (event, ip, period, ksym, bpf) -> kept.add(new Object[] {event, ip, period, ksym, bpf}));
            if (natives != null) {
                natives.add(s.event(), s.period(), s.frame());
            }
        }, false);
        BpfAnnotation a = new BpfAnnotation(BpfLineTable.of(file));
        for (Object[] k : kept) {
            a.add((EventDesc) k[0], (Long) k[1], (Long) k[2], (String) k[3], (Boolean) k[4]);
        }
        return a;
    }

    /** Where a sample in the kernel goes: BpfAnnotation.add's arguments. */
    private interface KernelSample {
        void add(EventDesc event, long ip, long period, String ksym, boolean bpf);
    }

    private static void count(CurrentSample s, KernelSample to) {
        Frame f = s.frame();
        if (s.cpumode() == PerfRecord.PERF_RECORD_MISC_KERNEL && f.symbol() != null && f.dso() != null) {
            to.add(s.event(), s.ip(), s.period(), f.symbol().name(), bpf(f));
        }
    }

    /** Whether a kernel frame (with symbol and DSO) is in JITed BPF code. */
    static boolean bpf(Frame f) {
        return f.dso().kind() == Dso.Kind.BPF || BPF_PROG_NAME.matcher(f.symbol().name()).matches();
    }

    /**
     * Prints the annotation of {@code file} to {@code stdout}; a SYMBOL that matched nothing is
     * said on {@code err}. The file's warnings stay on it for the caller to print.
     */
    public static void run(PerfDataFile file, Options o, OutputStream stdout, PrintStream err) {
        SymbolResolver resolver = new SymbolResolver(SymbolResolver.Options.defaults(o.kallsyms(), o.display().symfs(), o.buildIdDir()));
        NativeAnnotation natives = o.json() ? null : new NativeAnnotation(o.symbol(), o.dsos());
        BpfAnnotation a = annotate(file, resolver, natives, o.filter());
        Selection sel = new Selection(o.symbol());
        PrintStream out = new PrintStream(new BufferedOutputStream(stdout, 1 << 16), false, StandardCharsets.UTF_8);
        boolean nativeShown = false;
        if (natives != null) {
            NativeAnnotation.PercentType type = o.percentType() == null ? NativeAnnotation.PercentType.LOCAL_PERIOD
                    : NativeAnnotation.PercentType.parse(o.percentType());
            nativeShown = natives.print(out, err, resolver, type, o.asmRaw(), o.display());
        }
        // a file without BPF samples gets perf's output only
        boolean bpfPart = !nativeShown && (natives == null || !natives.limited()) || !a.events().isEmpty();
        if (bpfPart && o.json()) {
            try {
                new AnnotateJson(out).print(file, a, sel);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else if (bpfPart) {
            new AnnotateStdio(out).print(file, a, sel);
        }
        out.flush();
        if (out.checkError()) {
            throw new UncheckedIOException(new IOException("error writing the output"));
        }
        if (o.symbol() != null && !sel.matchedAny() && !nativeShown && (natives == null || !natives.limited())) {
            err.println("jperf annotate: no samples in a JITed BPF function or program named " + o.symbol());
        }
    }

    /** Why a file has no BPF line table, in one line (null when it has one). */
    static String missingLineInfo(PerfDataFile file, BpfLineTable table) {
        if (!table.isEmpty()) {
            return null;
        }
        if (file.isPipe()) {
            return "no BPF line info in " + file.name() + ": a stream without BPF_PROG_INFO / BPF_BTF records"
                    + " (perf writes them empty in pipe mode; jperf record -o - writes them); per-function counts only";
        }
        return "no BPF line info in " + file.name() + ": HEADER_BPF_PROG_INFO is missing or empty; per-function counts only";
    }
}
