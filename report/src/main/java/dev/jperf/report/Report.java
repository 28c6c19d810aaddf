package dev.jperf.report;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.header.EventDesc;
import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.Hists;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.report.output.JsonReport;
import dev.jperf.report.output.StdioReport;
import dev.jperf.report.session.SampleFilter;
import dev.jperf.report.session.Session;
import dev.jperf.report.symbol.SymbolResolver;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/** {@code jperf report}: read, resolve, aggregate per event, print (stdio table or JSON). */
public final class Report {
    /**
     * The report options, named as perf names them: {@link #defaults} and the {@code with}
     * methods build them.
     *
     * @param children --children (cumulate callchains; perf's default when the file has callchains)
     * @param callGraph -g (perf's callchain_param; {@link CallchainParams#NO_GRAPH} for -g none)
     * @param percentLimit --percent-limit
     * @param relative --percentage relative: percentages (and the header's totals) of the samples
     *     the filters keep, not of all
     * @param filter --comms, --pid, --tid, --cpu, --dsos, --symbols
     * @param showSamples -n/--show-nr-samples (the stdio table's Samples column)
     * @param callchainsAsked -g/-G given with a graph mode other than none
     */
    public record Options(Path input, List<SortKey> sort, boolean children, CallchainParams callGraph,
            double percentLimit, boolean relative, SampleFilter filter, Path kallsyms, Path symfs, boolean json,
            boolean demangle, boolean showSamples, boolean callchainsAsked) {
        /** perf report on {@code input} without options: comm,dso,sym, children, the default graph. */
        public static Options defaults(Path input) {
            return new Options(input, SortKey.parse("comm,dso,sym"), true, CallchainParams.DEFAULT, 0, false,
                    SampleFilter.NONE, null, null, false, true, false, false);
        }

        public Options withSort(List<SortKey> sort) {
            return new Options(input, sort, children, callGraph, percentLimit, relative, filter, kallsyms, symfs, json,
                    demangle, showSamples, callchainsAsked);
        }

        public Options withChildren(boolean children) {
            return new Options(input, sort, children, callGraph, percentLimit, relative, filter, kallsyms, symfs, json,
                    demangle, showSamples, callchainsAsked);
        }

        public Options withCallGraph(CallchainParams callGraph) {
            return new Options(input, sort, children, callGraph, percentLimit, relative, filter, kallsyms, symfs, json,
                    demangle, showSamples, callchainsAsked);
        }

        /** --percent-limit and --percentage (relative or absolute). */
        public Options withPercent(double percentLimit, boolean relative) {
            return new Options(input, sort, children, callGraph, percentLimit, relative, filter, kallsyms, symfs, json,
                    demangle, showSamples, callchainsAsked);
        }

        public Options withFilter(SampleFilter filter) {
            return new Options(input, sort, children, callGraph, percentLimit, relative, filter, kallsyms, symfs, json,
                    demangle, showSamples, callchainsAsked);
        }

        /** --kallsyms and --symfs (either may be null). */
        public Options withSymbols(Path kallsyms, Path symfs) {
            return new Options(input, sort, children, callGraph, percentLimit, relative, filter, kallsyms, symfs, json,
                    demangle, showSamples, callchainsAsked);
        }

        public Options withJson(boolean json) {
            return new Options(input, sort, children, callGraph, percentLimit, relative, filter, kallsyms, symfs, json,
                    demangle, showSamples, callchainsAsked);
        }

        public Options withShowSamples(boolean showSamples) {
            return new Options(input, sort, children, callGraph, percentLimit, relative, filter, kallsyms, symfs, json,
                    demangle, showSamples, callchainsAsked);
        }

        /**
         * -g or -G given (perf's symbol_conf.use_callchain set by the command line): a file whose
         * samples have no callchains is then an error, as in perf, not a report without a graph.
         */
        public Options withCallchainsAsked(boolean callchainsAsked) {
            return new Options(input, sort, children, callGraph, percentLimit, relative, filter, kallsyms, symfs, json,
                    demangle, showSamples, callchainsAsked);
        }

        public Options withDemangle(boolean demangle) {
            return new Options(input, sort, children, callGraph, percentLimit, relative, filter, kallsyms, symfs, json,
                    demangle, showSamples, callchainsAsked);
        }
    }

    private Report() {
    }

    /** The histograms of every event with the session that filled them. */
    public record Result(List<Hists> hists, Session session) {
    }

    public static Result aggregate(PerfDataFile file, Options o) {
        boolean hasCallchains = false;
        for (EventDesc e : file.events()) {
            hasCallchains |= (e.attr().sampleType() & (1L << 5)) != 0;
        }
        if (o.callchainsAsked() && !hasCallchains && !file.isPipe()) {
            // perf: "Selected -g or --branch-history. But no callchain or branch data."
            throw new IllegalArgumentException(file.name() + ": -g asks for call graphs but the samples have no callchains"
                    + " (recorded without -g?)");
        }
        boolean children = o.children() && hasCallchains;
        // perf's use_callchain: a graph is kept only when the file has callchains
        CallchainParams.Order graph = o.callGraph().enabled() && hasCallchains
                ? o.callGraph().effectiveOrder(children) : null;
        SymbolResolver resolver = new SymbolResolver(
                SymbolResolver.Options.defaults(o.kallsyms(), o.symfs()).withDemangle(o.demangle()));
        Session session = new Session(file, resolver,
                new Session.Options(children || graph != null, o.filter()));
        Map<EventDesc, Hists> byEvent = new IdentityHashMap<>();
        List<Hists> ordered = new ArrayList<>();
        for (EventDesc e : file.events()) {
            Hists h = new Hists(e, o.sort(), children, graph);
            byEvent.put(e, h);
            ordered.add(h);
        }
        // callee order keeps the innermost 127 frames of a deeper chain, caller order the outermost
        boolean calleeCut = graph == CallchainParams.Order.CALLEE;
        session.scan(s -> {
            Hists h = byEvent.get(s.event());
            if (h == null) {
                h = new Hists(s.event(), o.sort(), children, graph);
                byEvent.put(s.event(), h);
                ordered.add(h);
            }
            h.add(s);
        }, calleeCut);
        return new Result(ordered, session);
    }

    public static void run(Options o, PrintStream out) {
        try (PerfDataFile file = PerfDataFile.open(o.input())) {
            run(file, o, out);
        }
    }

    /** The report of a file already open (a pipe-mode stream on stdin); {@code o.input()} is not read. */
    public static void run(PerfDataFile file, Options o, PrintStream out) {
        Result r = aggregate(file, o);
        if (o.json()) {
            new JsonReport(out, o.percentLimit(), o.relative(), o.callGraph(), o.sort().get(0) == SortKey.SYM)
                    .print(r.hists(), r.session().totalLostSamples());
        } else {
            new StdioReport(out, o.percentLimit(), o.relative(), o.callGraph(), o.sort().get(0) == SortKey.SYM)
                    .elide(o.filter()).showSamples(o.showSamples())
                    .print(r.hists(), r.session().totalLostSamples());
        }
        out.flush();
    }
}
