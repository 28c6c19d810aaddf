package dev.jperf.report;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.feature.Feature;
import dev.jperf.format.feature.GroupDescs;
import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.GroupHists;
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
     * methods build them, each on a copy (an instance never changes once handed out).
     */
    public static final class Options {
        private Path input;
        private List<SortKey> sort = SortKey.parse("comm,dso,sym");
        private boolean children = true;
        private CallchainParams callGraph = CallchainParams.DEFAULT;
        private double percentLimit;
        private boolean relative;
        private SampleFilter filter = SampleFilter.NONE;
        private Path kallsyms;
        private Path symfs;
        private Path buildIdDir;
        private boolean json;
        private boolean demangle = true;
        private boolean showSamples;
        private boolean callchainsAsked;
        private Boolean group;

        private Options() {
        }

        /** perf report on {@code input} without options: comm,dso,sym, children, the default graph. */
        public static Options defaults(Path input) {
            Options o = new Options();
            o.input = input;
            return o;
        }

        private Options copy() {
            Options o = new Options();
            o.input = input;
            o.sort = sort;
            o.children = children;
            o.callGraph = callGraph;
            o.percentLimit = percentLimit;
            o.relative = relative;
            o.filter = filter;
            o.kallsyms = kallsyms;
            o.symfs = symfs;
            o.buildIdDir = buildIdDir;
            o.json = json;
            o.demangle = demangle;
            o.showSamples = showSamples;
            o.callchainsAsked = callchainsAsked;
            o.group = group;
            return o;
        }

        public Options withSort(List<SortKey> sort) {
            Options o = copy();
            o.sort = sort;
            return o;
        }

        /** --children: cumulate callchains (perf's default when the file has callchains). */
        public Options withChildren(boolean children) {
            Options o = copy();
            o.children = children;
            return o;
        }

        /** -g: perf's callchain_param; {@link CallchainParams#NO_GRAPH} for -g none. */
        public Options withCallGraph(CallchainParams callGraph) {
            Options o = copy();
            o.callGraph = callGraph;
            return o;
        }

        /**
         * --percent-limit and --percentage: {@code relative} takes percentages (and the header's
         * totals) of the samples the filters keep, not of all.
         */
        public Options withPercent(double percentLimit, boolean relative) {
            Options o = copy();
            o.percentLimit = percentLimit;
            o.relative = relative;
            return o;
        }

        /** --comms, --pid, --tid, --cpu, --dsos, --symbols. */
        public Options withFilter(SampleFilter filter) {
            Options o = copy();
            o.filter = filter;
            return o;
        }

        /** --kallsyms and --symfs (either may be null). */
        public Options withSymbols(Path kallsyms, Path symfs) {
            Options o = copy();
            o.kallsyms = kallsyms;
            o.symfs = symfs;
            return o;
        }

        /** --buildid-dir: the build-id cache (null: PERF_BUILDID_DIR, else ~/.debug). */
        public Options withBuildIdDir(Path buildIdDir) {
            Options o = copy();
            o.buildIdDir = buildIdDir;
            return o;
        }

        public Options withJson(boolean json) {
            Options o = copy();
            o.json = json;
            return o;
        }

        /** -n/--show-nr-samples: the stdio table's Samples column. */
        public Options withShowSamples(boolean showSamples) {
            Options o = copy();
            o.showSamples = showSamples;
            return o;
        }

        /**
         * -g given with a graph mode other than none (perf's symbol_conf.use_callchain set by the
         * command line): a file whose samples have no callchains is then an error, as in perf, not a
         * report without a graph.
         */
        public Options withCallchainsAsked(boolean callchainsAsked) {
            Options o = copy();
            o.callchainsAsked = callchainsAsked;
            return o;
        }

        /** --group/--no-group; null: perf's default (group view when the file has event groups). */
        public Options withGroup(Boolean group) {
            Options o = copy();
            o.group = group;
            return o;
        }

        public Options withDemangle(boolean demangle) {
            Options o = copy();
            o.demangle = demangle;
            return o;
        }

        public Path input() {
            return input;
        }

        public List<SortKey> sort() {
            return sort;
        }

        public boolean children() {
            return children;
        }

        public CallchainParams callGraph() {
            return callGraph;
        }

        public double percentLimit() {
            return percentLimit;
        }

        public boolean relative() {
            return relative;
        }

        public SampleFilter filter() {
            return filter;
        }

        public Path kallsyms() {
            return kallsyms;
        }

        public Path symfs() {
            return symfs;
        }

        public Path buildIdDir() {
            return buildIdDir;
        }

        public boolean json() {
            return json;
        }

        public boolean demangle() {
            return demangle;
        }

        public boolean showSamples() {
            return showSamples;
        }

        public boolean callchainsAsked() {
            return callchainsAsked;
        }

        public Boolean group() {
            return group;
        }
    }

    private Report() {
    }

    /**
     * The histograms of every event with the session that filled them, and the report's sections
     * (an event or, in group view, a group of events each).
     */
    public record Result(List<Hists> hists, Session session, List<GroupHists> sections) {
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
                SymbolResolver.Options.defaults(o.kallsyms(), o.symfs(), o.buildIdDir()).withDemangle(o.demangle()));
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
                // a pipe's events are described again in the stream: the new description takes
                // its index's place (group descriptions name events by index)
                int i = s.event().index();
                if (i >= 0 && i < ordered.size() && ordered.get(i).samples() == 0
                        && ordered.get(i).event().index() == i) {
                    ordered.set(i, h);
                } else {
                    ordered.add(h);
                }
            }
            h.add(s);
        }, calleeCut);
        // pipe mode: the feature records came with the stream, so groups are known only now
        List<GroupDescs.Group> groups = file.features().get(Feature.GROUP_DESC.bit())
                .map(g -> ((GroupDescs) g).groups()).orElse(List.of());
        return new Result(ordered, session, GroupHists.sections(ordered, groups, o.group()));
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
                    .printSections(r.sections(), r.session().totalLostSamples());
        }
        out.flush();
    }
}
