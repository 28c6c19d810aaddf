package dev.jperf.report.export;

import dev.jperf.format.PerfDataFile;
import dev.jperf.report.Report;
import dev.jperf.report.annotate.BpfLineTable;
import dev.jperf.report.session.SampleFilter;
import dev.jperf.report.symbol.SymbolResolver;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;

/** The exports' entry points: read a file once into {@link Stacks}, then write one format. */
public final class Exports {
    private Exports() {
    }

    /** {@code jperf script --folded}: collapsed stacks of every sample to {@code out}. */
    public static void folded(PerfDataFile file, SymbolResolver.Options symbols, OutputStream out, PrintStream err) {
        Stacks s = collect(file, symbols, SampleFilter.NONE, Stacks.Granularity.SYMBOL, err);
        try {
            FoldedStacks.write(s, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code jperf report --pprof}: the samples {@code o}'s filters keep, as a gzipped pprof
     * profile in {@code output} ({@code -}: {@code stdout}), which a failure leaves as it was.
     */
    public static void pprof(PerfDataFile file, Report.Options o, String output, OutputStream stdout, PrintStream err) {
        try (OutputFile out = OutputFile.open(output, stdout)) {
            Stacks s = collect(file, o, Stacks.Granularity.ADDRESS, err);
            new PprofExport(s, BpfLineTable.of(file)).write(out.stream(), "jperf report --pprof " + file.name());
            out.commit();
        } catch (IOException e) {
            throw OutputFile.failed(output, e);
        }
    }

    /**
     * {@code jperf report --flamegraph}: the samples {@code o}'s filters keep as one self-contained
     * HTML flame graph in {@code output} ({@code -}: {@code stdout}; a failure leaves it as it was),
     * shares as perf's report computes them ({@code --children} or not, {@code --percentage}).
     */
    public static void flamegraph(PerfDataFile file, Report.Options o, String output, OutputStream stdout,
            PrintStream err) {
        try (OutputFile out = OutputFile.open(output, stdout)) {
            Stacks s = collect(file, o, Stacks.Granularity.SYMBOL, err);
            boolean children = o.children() && s.callchains();
            new FlameGraphExport(s, BpfLineTable.of(file), children, o.relative(), "jperf: " + file.name())
                    .write(out.stream());
            out.commit();
        } catch (IOException e) {
            throw OutputFile.failed(output, e);
        }
    }

    private static SymbolResolver.Options symbols(Report.Options o) {
        return SymbolResolver.Options.defaults(o.kallsyms(), o.symfs(), o.buildIdDir()).withDemangle(o.demangle()).withInline(o.inline())
                .withFullSourcePath(o.fullSourcePath());
    }

    /** {@link #collect} as report's options say: its filters, --max-stack and -U shape the stacks as they shape its graphs. */
    static Stacks collect(PerfDataFile file, Report.Options o, Stacks.Granularity granularity, PrintStream err) {
        noCallchains(file, err);
        return Stacks.collect(file, symbols(o), o.filter(), granularity, o.maxStack(), o.hideUnresolved());
    }

    /** The stacks of {@code file}, saying once on {@code err} when it has no callchains. */
    static Stacks collect(PerfDataFile file, SymbolResolver.Options symbols, SampleFilter filter,
            Stacks.Granularity granularity, PrintStream err) {
        noCallchains(file, err);
        return Stacks.collect(file, symbols, filter, granularity);
    }

    private static void noCallchains(PerfDataFile file, PrintStream err) {
        if (!Stacks.hasCallchains(file)) {
            err.println("jperf: " + file.name() + ": the samples have no callchains (recorded without -g):"
                    + " each stack is the sampled function alone");
            err.flush();
        }
    }
}
