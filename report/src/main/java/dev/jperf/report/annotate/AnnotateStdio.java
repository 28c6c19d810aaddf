package dev.jperf.report.annotate;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.bpf.BpfSourceLine;
import dev.jperf.report.annotate.BpfAnnotation.EventHist;
import dev.jperf.report.annotate.BpfAnnotation.FunctionHist;
import dev.jperf.report.annotate.BpfAnnotation.ProgramHist;
import dev.jperf.report.annotate.BpfAnnotation.SourceLineCount;
import dev.jperf.report.annotate.BpfAnnotation.UnknownFunction;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * perf annotate's --stdio look for BPF source: per program a subprogram breakdown, then per
 * sampled function a header with its sample count and every source line of its line table with
 * the share of the function's samples (blank when none), line number and source text.
 */
final class AnnotateStdio {
    private static final String RULE = "-".repeat(100);
    private final PrintStream out;

    AnnotateStdio(PrintStream out) {
        this.out = out;
    }

    void print(PerfDataFile file, BpfAnnotation a, Selection sel) {
        String missing = Annotate.missingLineInfo(file, a.table());
        if (missing != null) {
            out.println("# " + missing);
        }
        List<EventHist> events = a.events();
        if (events.isEmpty()) {
            out.println("# no samples in JITed BPF code");
            return;
        }
        for (EventHist e : events) {
            for (ProgramHist p : e.programs()) {
                program(e, p, sel);
            }
            unknown(e, sel);
        }
    }

    private void program(EventHist e, ProgramHist p, Selection sel) {
        List<FunctionHist> chosen = new ArrayList<>();
        for (FunctionHist f : p.functions()) {
            if (sel.function(f.function(), p.name())) {
                chosen.add(f);
            }
        }
        if (chosen.isEmpty()) {
            return;
        }
        long total = p.samples();
        out.println("# Event '" + e.event().name() + "': BPF program " + Integer.toUnsignedString(p.prog().id()) + " "
                + p.name() + " (tag " + p.prog().tagHex() + "): " + total + " samples");
        out.println("#");
        out.println("#   Samples  Percent  Subprogram        Symbol");
        for (FunctionHist f : p.functions()) {
            out.println(String.format(Locale.ROOT, "  %9d  %6.2f%%  %-16s  %s", f.samples(), pct(f.samples(), total),
                    f.function().funcName(), f.function().kernelName()));
        }
        out.println();
        chosen.sort(Comparator.comparingLong(FunctionHist::samples).reversed());
        for (FunctionHist f : chosen) {
            if (f.samples() > 0) {
                function(e, p, f);
            }
        }
    }

    private void function(EventHist e, ProgramHist p, FunctionHist f) {
        BpfFunction fn = f.function();
        out.println(" Percent |\tSource code of " + fn.kernelName() + " for " + e.event().name() + " (" + f.samples()
                + " samples, BPF program " + Integer.toUnsignedString(p.prog().id()) + " " + p.name()
                + (fn.index() == 0 ? ", main function)" : ", subprogram " + fn.index() + ")"));
        out.println(RULE);
        if (!fn.hasLines()) {
            out.println("         :\tno line info for this function in perf.data");
            out.println();
            return;
        }
        String file = null;
        StringBuilder sb = new StringBuilder(128);
        for (SourceLineCount c : f.bySourceLine()) {
            if (!c.file().equals(file)) {
                file = c.file();
                out.println("         :\t" + (file.isEmpty() ? "(no BTF: file unknown)" : file));
            }
            sb.setLength(0);
            if (c.samples() > 0) {
                sb.append(String.format(Locale.ROOT, "%8.2f", pct(c.samples(), f.samples())));
            } else {
                sb.append("        ");
            }
            sb.append(" : ");
            String ln = Integer.toString(c.line());
            sb.append(" ".repeat(Math.max(0, 5 - ln.length()))).append(ln).append(":  ");
            sb.append(c.line() == 0 ? "(no source line: compiler-generated code)" : c.text());
            out.println(sb);
        }
        if (f.samplesWithoutLine() > 0) {
            out.println(String.format(Locale.ROOT, "%8.2f :        (before the first line record)",
                    pct(f.samplesWithoutLine(), f.samples())));
        }
        out.println();
        jited(e, f);
    }

    /**
     * The function's JITed x86-64 code from HEADER_BPF_PROG_INFO's jited_prog_insns, each
     * instruction with its share of the function's samples, the BTF source line of each line
     * record above the instructions it covers. Said in one line when the file has no image or
     * there is no disassembler.
     */
    private void jited(EventHist e, FunctionHist f) {
        BpfFunction fn = f.function();
        byte[] image = BpfJitedCode.of(fn);
        out.println(" Percent |\tJITed x86-64 code of " + fn.kernelName() + " for " + e.event().name() + " (" + f.samples()
                + " samples)");
        out.println(RULE);
        if (image == null) {
            out.println("         :\tno JITed code for this function in perf.data (jited_prog_insns not recorded)");
            out.println();
            return;
        }
        String why = dev.jperf.nativeshim.Capstone.unavailable();
        if (why != null) {
            out.println("         :\t" + why);
            out.println();
            return;
        }
        java.util.NavigableMap<Long, long[]> hits = f.byAddress();
        List<long[]> insns = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        try (dev.jperf.nativeshim.X86Disassembler d = new dev.jperf.nativeshim.X86Disassembler(null)) {
            d.decode(image, 0, image.length, fn.start(), (addr, size, text) -> {
                insns.add(new long[] {addr, size});
                texts.add(text);
            });
        }
        int shownLine = -2;
        BpfSourceLine[] lines = fn.lines();
        for (int i = 0; i < insns.size(); i++) {
            long addr = insns.get(i)[0];
            long next = addr + insns.get(i)[1];
            int j = fn.lineAt(addr);
            if (j != shownLine && j >= 0) {
                BpfSourceLine l = lines[j];
                out.println("         :\t" + (l.file().isEmpty() ? "" : l.file() + ":") + l.line() + "  "
                        + (l.line() == 0 ? "(no source line)" : l.text().strip()));
                shownLine = j;
            }
            long n = 0;
            for (long[] c : hits.subMap(addr, true, next, false).values()) {
                n += c[0];
            }
            String pc = n > 0 ? String.format(Locale.ROOT, "%8.2f", pct(n, f.samples())) : "        ";
            out.println(pc + " : " + String.format(Locale.ROOT, "%16x", addr) + ":  " + texts.get(i));
        }
        out.println();
    }

    private void unknown(EventHist e, Selection sel) {
        List<UnknownFunction> l = new ArrayList<>();
        for (UnknownFunction u : e.unknownFunctions()) {
            if (sel.ksym(u.ksym())) {
                l.add(u);
            }
        }
        if (l.isEmpty()) {
            return;
        }
        long total = 0;
        for (UnknownFunction u : l) {
            total += u.samples();
        }
        out.println("# Event '" + e.event().name() + "': " + total
                + " samples in BPF functions without line info in perf.data (program not in HEADER_BPF_PROG_INFO)");
        out.println("#");
        out.println("#   Samples  Symbol");
        for (UnknownFunction u : l) {
            out.println(String.format(Locale.ROOT, "  %9d  %s", u.samples(), u.ksym()));
        }
        out.println();
    }

    private static double pct(long n, long total) {
        return total == 0 ? 0 : 100.0 * n / total;
    }
}
