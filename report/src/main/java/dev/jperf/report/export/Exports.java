package dev.jperf.report.export;

import dev.jperf.format.PerfDataFile;
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
        Stacks s = collect(file, symbols, SampleFilter.NONE, err);
        try {
            FoldedStacks.write(s, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The stacks of {@code file}, saying once on {@code err} when it has no callchains. */
    static Stacks collect(PerfDataFile file, SymbolResolver.Options symbols, SampleFilter filter, PrintStream err) {
        if (!Stacks.hasCallchains(file)) {
            err.println("jperf: " + file.name() + ": the samples have no callchains (recorded without -g):"
                    + " each stack is the sampled function alone");
            err.flush();
        }
        return Stacks.collect(file, symbols, filter);
    }
}
