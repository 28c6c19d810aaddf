package dev.jperf.report;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.PerfEventAttr;
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
import java.util.Locale;
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
        /** --sort given: else perf's default of the mode (branch mode has its own). */
        private boolean sortGiven;
        private Boolean branchStack;
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
            o.sortGiven = sortGiven;
            o.branchStack = branchStack;
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
            o.sortGiven = true;
            return o;
        }

        /**
         * -b/--branch-stack, --no-branch-stack; null: perf's default (branch mode when the file
         * has HEADER_BRANCH_STACK).
         */
        public Options withBranchStack(Boolean branchStack) {
            Options o = copy();
            o.branchStack = branchStack;
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

        /** The sort keys of a report in branch mode or not: --sort's, else perf's default for it. */
        public List<SortKey> sort(boolean branchMode) {
            if (!branchMode) {
                return sort;
            }
            if (!sortGiven) {
                return BRANCH_SORT;
            }
            // perf appends ipc_lbr to a --sort naming "symbol" in branch mode
            if (sort.contains(SortKey.SYMBOL_FROM) || sort.contains(SortKey.SYMBOL_TO)) {
                List<SortKey> withIpc = new ArrayList<>(sort);
                withIpc.add(SortKey.IPC_LBR);
                return List.copyOf(withIpc);
            }
            return sort;
        }

        public Boolean branchStack() {
            return branchStack;
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

    /** perf's default_branch_sort_order. */
    private static final List<SortKey> BRANCH_SORT = SortKey.parse("comm,dso_from,symbol_from,symbol_to,cycles");

    private Report() {
    }

    /**
     * perf's sort__mode == SORT_MODE__BRANCH: asked for with -b, else the default when the file
     * has HEADER_BRANCH_STACK and no user stacks.
     */
    static boolean branchMode(PerfDataFile file, Options o) {
        boolean has = file.featureBits().contains(Feature.BRANCH_STACK.bit());
        for (EventDesc e : file.events()) {
            if ((e.attr().sampleType() & PerfEventAttr.PERF_SAMPLE_STACK_USER) != 0) {
                has = false;
            }
        }
        if (Boolean.TRUE.equals(o.branchStack()) && !has) {
            throw new IllegalArgumentException(file.name() + ": -b asks for branch stacks but the file has none"
                    + " (recorded without -b?)");
        }
        return o.branchStack() != null ? o.branchStack() : has;
    }

    /**
     * The histograms of every event with the session that filled them, and the report's sections
     * (an event or, in group view, a group of events each).
     */
    public record Result(List<Hists> hists, Session session, List<GroupDescs.Group> groups, Boolean eventGroup) {
        /**
         * The stdio report's sections: in group view the members are linked into their leaders'
         * hists (dummy entries), so this is called once, and not for per-event output (--json).
         */
        public List<GroupHists> sections() {
            return GroupHists.sections(hists, groups, eventGroup);
        }
    }

    public static Result aggregate(PerfDataFile file, Options o) {
        boolean hasCallchains = false;
        for (EventDesc e : file.events()) {
            hasCallchains |= (e.attr().sampleType() & PerfEventAttr.PERF_SAMPLE_CALLCHAIN) != 0;
        }
        if (o.callchainsAsked() && !hasCallchains && !file.isPipe()) {
            // perf: "Selected -g or --branch-history. But no callchain or branch data."
            throw new IllegalArgumentException(file.name() + ": -g asks for call graphs but the samples have no callchains"
                    + " (recorded without -g?)");
        }
        boolean branch = branchMode(file, o);
        List<SortKey> sort = o.sort(branch);
        for (SortKey k : sort) {
            if (k.branch() && !branch) {
                throw new IllegalArgumentException("Invalid --sort key: `" + k.name().toLowerCase(Locale.ROOT)
                        + "' (a branch mode key: the file has no branch stacks, or --no-branch-stack)");
            }
        }
        // branch mode entries are branches: no cumulated callchains, no graphs (perf adds none to them)
        boolean children = o.children() && hasCallchains && !branch;
        // perf's use_callchain: a graph is kept only when the file has callchains
        CallchainParams.Order graph = o.callGraph().enabled() && hasCallchains && !branch
                ? o.callGraph().effectiveOrder(children) : null;
        SymbolResolver resolver = new SymbolResolver(
                SymbolResolver.Options.defaults(o.kallsyms(), o.symfs(), o.buildIdDir()).withDemangle(o.demangle()));
        Session session = new Session(file, resolver,
                new Session.Options(children || graph != null, o.filter(), branch));
        Map<EventDesc, Hists> byEvent = new IdentityHashMap<>();
        List<Hists> ordered = new ArrayList<>();
        for (EventDesc e : file.events()) {
            Hists h = new Hists(e, sort, children, graph, branch);
            byEvent.put(e, h);
            ordered.add(h);
        }
        // callee order keeps the innermost 127 frames of a deeper chain, caller order the outermost
        boolean calleeCut = graph == CallchainParams.Order.CALLEE;
        session.scan(s -> {
            Hists h = byEvent.get(s.event());
            if (h == null) {
                h = new Hists(s.event(), sort, children, graph, branch);
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
        return new Result(ordered, session, groups, o.group());
    }

    /**
     * The line said when the file holds an AUX area trace (Intel PT, CoreSight...), or null: perf
     * decodes it into samples of its own; jperf has no decoder and reports the samples the file
     * holds, which it says.
     */
    public static String auxtraceNotice(PerfDataFile file, Result r) {
        long bytes = r.session().auxtraceBytes();
        if (bytes == 0) {
            return null;
        }
        long samples = 0;
        for (Hists h : r.hists()) {
            samples += h.samples();
        }
        return "jperf report: " + file.name() + ": " + bytes + " bytes of AUX area trace not decoded (jperf has no"
                + " instruction-trace decoder): the report shows the " + samples + " samples the file holds, not those"
                + " perf synthesizes from the trace";
    }

    /**
     * The line said when srcline_from/srcline_to name branch ends in ELF files, or null: perf's
     * addr2line may find their source lines there, jperf (no DWARF line tables) prints
     * symbol+offset, as perf does where addr2line finds none.
     */
    public static String srclineNotice(Result r) {
        for (Hists h : r.hists()) {
            if ((h.keys().contains(SortKey.SRCLINE_FROM) || h.keys().contains(SortKey.SRCLINE_TO)) && h.branchEndsInElf()) {
                return "jperf report: srcline_from/srcline_to: jperf reads no DWARF line tables: branch ends in ELF"
                        + " files show symbol+offset where perf's addr2line may print file:line";
            }
        }
        return null;
    }

    public static void run(Options o, PrintStream out) {
        try (PerfDataFile file = PerfDataFile.open(o.input())) {
            run(file, o, out);
        }
    }

    /** The report of a file already open (a pipe-mode stream on stdin); {@code o.input()} is not read. */
    public static void run(PerfDataFile file, Options o, PrintStream out) {
        Result r = aggregate(file, o);
        String aux = auxtraceNotice(file, r);
        if (aux != null) {
            System.err.println(aux);
        }
        String srcline = srclineNotice(r);
        if (srcline != null) {
            System.err.println(srcline);
        }
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
