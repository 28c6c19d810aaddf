package dev.jperf.report;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.feature.Feature;
import dev.jperf.format.feature.GroupDescs;
import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.GroupHists;
import dev.jperf.report.aggregate.Hists;
import dev.jperf.report.aggregate.FieldOrder;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.report.output.JsonReport;
import dev.jperf.report.output.StdioReport;
import dev.jperf.report.output.TasksReport;
import dev.jperf.report.session.EvSwitch;
import dev.jperf.report.session.Machine;
import dev.jperf.report.session.PipelinedSink;
import dev.jperf.report.session.SampleFilter;
import dev.jperf.report.session.SampleSink;
import dev.jperf.report.session.Session;
import dev.jperf.report.symbol.SymbolResolver;
import java.io.OutputStream;
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
     * The report options, named as perf names them: {@link #defaults} (perf report without
     * options) or a {@link Builder} from {@link #builder} or {@link #toBuilder}; an instance never
     * changes once built.
     */
    public static final class Options {
        private final Path input;
        private final List<SortKey> sort;
        /** --sort given: else perf's default of the mode (branch mode has its own). */
        private final boolean sortGiven;
        private final Boolean branchStack;
        private final boolean children;
        private final CallchainParams callGraph;
        private final double percentLimit;
        private final boolean relative;
        private final SampleFilter filter;
        private final Path kallsyms;
        private final Path symfs;
        private final Path buildIdDir;
        private final boolean json;
        private final boolean demangle;
        private final boolean inline;
        private final boolean showSamples;
        private final boolean showPeriod;
        private final boolean quiet;
        private final String separator;
        private final boolean callchainsAsked;
        private final Boolean group;
        /** The filters' single values elide their columns (perf's sort__setup_elide); not in the browser's thread zoom. */
        private final boolean elide;
        /** The stdio report's percentages in perf's colours (its stdout a terminal or perf's pager). */
        private final boolean color;
        private final int maxStack;
        private final boolean hideUnresolved;
        private final boolean skipEmpty;
        private final String symbolFilter;
        private final boolean fullSourcePath;
        /** --sort as given when it names output fields (overhead, sample...), else null. */
        private final String sortFields;
        /** -F/--fields as given, or null. */
        private final String fields;
        private final boolean branchHistory;
        private final boolean stitchLbr;
        private final boolean totalCycles;
        private final boolean cpuUtilization;
        private final String switchOn;
        private final String switchOff;
        private final boolean showOnOffEvents;

        private Options(Builder b) {
            input = b.input;
            sortFields = b.sortFields;
            fields = b.fields;
            sort = b.sort;
            sortGiven = b.sortGiven;
            branchStack = b.branchStack;
            children = b.children;
            callGraph = b.callGraph;
            percentLimit = b.percentLimit;
            relative = b.relative;
            filter = b.filter;
            kallsyms = b.kallsyms;
            symfs = b.symfs;
            buildIdDir = b.buildIdDir;
            json = b.json;
            demangle = b.demangle;
            inline = b.inline;
            showSamples = b.showSamples;
            showPeriod = b.showPeriod;
            quiet = b.quiet;
            separator = b.separator;
            callchainsAsked = b.callchainsAsked;
            group = b.group;
            elide = b.elide;
            color = b.color;
            maxStack = b.maxStack;
            hideUnresolved = b.hideUnresolved;
            skipEmpty = b.skipEmpty;
            symbolFilter = b.symbolFilter;
            fullSourcePath = b.fullSourcePath;
            branchHistory = b.branchHistory;
            stitchLbr = b.stitchLbr;
            totalCycles = b.totalCycles;
            cpuUtilization = b.cpuUtilization;
            switchOn = b.switchOn;
            switchOff = b.switchOff;
            showOnOffEvents = b.showOnOffEvents;
        }

        /** perf report on {@code input} without options: comm,dso,sym, children, the default graph. */
        public static Options defaults(Path input) {
            return builder(input).build();
        }

        /** Options for {@code input}, from perf's defaults. */
        public static Builder builder(Path input) {
            return new Builder(input);
        }

        /** A builder holding these options, to build others that differ in some. */
        public Builder toBuilder() {
            Builder b = new Builder(input);
            b.sort = sort;
            b.sortGiven = sortGiven;
            b.branchStack = branchStack;
            b.children = children;
            b.callGraph = callGraph;
            b.percentLimit = percentLimit;
            b.relative = relative;
            b.filter = filter;
            b.kallsyms = kallsyms;
            b.symfs = symfs;
            b.buildIdDir = buildIdDir;
            b.json = json;
            b.demangle = demangle;
            b.inline = inline;
            b.showSamples = showSamples;
            b.showPeriod = showPeriod;
            b.quiet = quiet;
            b.separator = separator;
            b.callchainsAsked = callchainsAsked;
            b.group = group;
            b.maxStack = maxStack;
            b.hideUnresolved = hideUnresolved;
            b.skipEmpty = skipEmpty;
            b.symbolFilter = symbolFilter;
            b.fullSourcePath = fullSourcePath;
            b.sortFields = sortFields;
            b.branchHistory = branchHistory;
            b.stitchLbr = stitchLbr;
            b.totalCycles = totalCycles;
            b.cpuUtilization = cpuUtilization;
            b.switchOn = switchOn;
            b.switchOff = switchOff;
            b.showOnOffEvents = showOnOffEvents;
            b.fields = fields;
            b.elide = elide;
            b.color = color;
            return b;
        }

        /** Collects the options; each setter is the option of the same name. */
        public static final class Builder {
            private final Path input;
            private List<SortKey> sort = SortKey.parse("comm,dso,sym");
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
            private boolean inline = true;
            private boolean showSamples;
            private boolean showPeriod;
            private boolean quiet;
            private String separator;
            private boolean callchainsAsked;
            private boolean branchHistory;
            private boolean stitchLbr;
            private boolean totalCycles;
            private boolean cpuUtilization;
            private String switchOn;
            private String switchOff;
            private boolean showOnOffEvents;
            private Boolean group;
            private boolean elide = true;
            private boolean color;
            private int maxStack = Machine.PERF_MAX_STACK_DEPTH;
            private boolean hideUnresolved;
            private boolean skipEmpty = true;
            private String symbolFilter;
            private boolean fullSourcePath;
            private String sortFields;
            private String fields;

            private Builder(Path input) {
                this.input = input;
            }

            /**
             * --sort as perf reads it: keys, or keys and output fields (overhead, sample, period...),
             * which make the output order a sort list of its own ({@link FieldOrder}).
             */
            public Builder sort(String sort) {
                if (FieldOrder.isDefault(sort, null)) {
                    sort(SortKey.parse(sort));
                    sortFields = null;
                } else {
                    sortFields = sort;
                    sortGiven = true;
                }
                return this;
            }

            /** -F/--fields: the columns, and their order when --sort does not give one ({@link FieldOrder}). */
            public Builder fields(String fields) {
                this.fields = fields;
                return this;
            }

            /** --sort. */
            public Builder sort(List<SortKey> sort) {
                this.sort = List.copyOf(sort);
                this.sortGiven = true;
                return this;
            }

            /**
             * -b/--branch-stack, --no-branch-stack; null: perf's default (branch mode when the file
             * has HEADER_BRANCH_STACK).
             */
            public Builder branchStack(Boolean branchStack) {
                this.branchStack = branchStack;
                return this;
            }

            /** --children: cumulate callchains (perf's default when the file has callchains). */
            public Builder children(boolean children) {
                this.children = children;
                return this;
            }

            /** -g: perf's callchain_param; {@link CallchainParams#NO_GRAPH} for -g none. */
            public Builder callGraph(CallchainParams callGraph) {
                this.callGraph = callGraph;
                return this;
            }

            /**
             * --percent-limit and --percentage: {@code relative} takes percentages (and the header's
             * totals) of the samples the filters keep, not of all.
             */
            public Builder percent(double percentLimit, boolean relative) {
                this.percentLimit = percentLimit;
                this.relative = relative;
                return this;
            }

            /** --comms, --pid, --tid, --cpu, --dsos, --symbols, --time. */
            public Builder filter(SampleFilter filter) {
                this.filter = filter;
                return this;
            }

            /** --kallsyms and --symfs (either may be null). */
            public Builder symbols(Path kallsyms, Path symfs) {
                this.kallsyms = kallsyms;
                this.symfs = symfs;
                return this;
            }

            /** --buildid-dir: the build-id cache (null: PERF_BUILDID_DIR, else ~/.debug). */
            public Builder buildIdDir(Path buildIdDir) {
                this.buildIdDir = buildIdDir;
                return this;
            }

            /** --json. */
            public Builder json(boolean json) {
                this.json = json;
                return this;
            }

            /** -n/--show-nr-samples: the stdio table's Samples column. */
            public Builder showSamples(boolean showSamples) {
                this.showSamples = showSamples;
                return this;
            }

            /** --show-total-period: the stdio table's Period column. */
            public Builder showPeriod(boolean showPeriod) {
                this.showPeriod = showPeriod;
                return this;
            }

            /** -t/--field-separator: the stdio table's columns joined by {@code sep}; null for perf's aligned columns. */
            public Builder separator(String sep) {
                this.separator = sep;
                return this;
            }

            /** -q/--quiet: the stdio table's rows without its comment lines. */
            public Builder quiet(boolean quiet) {
                this.quiet = quiet;
                return this;
            }

            /**
             * -g given with a graph mode other than none (perf's symbol_conf.use_callchain set by the
             * command line): a file whose samples have no callchains is then an error, as in perf, not
             * a report without a graph.
             */
            public Builder callchainsAsked(boolean callchainsAsked) {
                this.callchainsAsked = callchainsAsked;
                return this;
            }

            /**
             * --branch-history, --stitch-lbr, --total-cycles: perf's answers on files without the
             * data they work on; on a file with it, jperf says it does not compute them.
             */
            /**
             * --switch-on, --switch-off (event names, or null) and --show-on-off-events: the
             * samples perf's evswitch keeps ({@link EvSwitch}).
             */
            public Builder evswitch(String on, String off, boolean showOnOff) {
                this.switchOn = on;
                this.switchOff = off;
                this.showOnOffEvents = showOnOff;
                return this;
            }

            /** --show-cpu-utilization: perf's sys and usr columns after Overhead. */
            public Builder cpuUtilization(boolean cpuUtilization) {
                this.cpuUtilization = cpuUtilization;
                return this;
            }

            public Builder branchOptions(boolean branchHistory, boolean stitchLbr, boolean totalCycles) {
                this.branchHistory = branchHistory;
                this.stitchLbr = stitchLbr;
                this.totalCycles = totalCycles;
                return this;
            }

            /** --group/--no-group; null: perf's default (group view when the file has event groups). */
            public Builder group(Boolean group) {
                this.group = group;
                return this;
            }

            /** --demangle/--no-demangle. */
            public Builder demangle(boolean demangle) {
                this.demangle = demangle;
                return this;
            }

            /** --max-stack: the callchain entries kept per sample, before aggregation (perf's default 127). */
            public Builder maxStack(int maxStack) {
                this.maxStack = maxStack;
                return this;
            }

            /** -U/--hide-unresolved: samples and callchain frames without a symbol left out, totals too. */
            /** --skip-empty (perf's default)/--no-skip-empty: events without samples left out or shown. */
            public Builder skipEmpty(boolean skipEmpty) {
                this.skipEmpty = skipEmpty;
                return this;
            }

            /** --full-source-path: srcline and srcfile name their file's whole path. */
            public Builder fullSourcePath(boolean fullSourcePath) {
                this.fullSourcePath = fullSourcePath;
                return this;
            }

            /** --symbol-filter: the first event's rows of symbols whose name contains it (as perf, with a comm key), or null. */
            public Builder symbolFilter(String symbolFilter) {
                this.symbolFilter = symbolFilter;
                return this;
            }

            public Builder hideUnresolved(boolean hideUnresolved) {
                this.hideUnresolved = hideUnresolved;
                return this;
            }

            /** --inline/--no-inline: inlined functions' frames in DWARF-unwound chains (perf's default: on). */
            public Builder inline(boolean inline) {
                this.inline = inline;
                return this;
            }

            /** False: every sort key keeps its column whatever the filters keep (the browser's thread zoom, as perf's). */
            public Builder elide(boolean elide) {
                this.elide = elide;
                return this;
            }

            /** perf's colours in the stdio report (perf_use_color_default: stdout a terminal, or its pager). */
            public Builder color(boolean color) {
                this.color = color;
                return this;
            }

            public Options build() {
                return new Options(this);
            }
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

        /**
         * The columns and sort list of -F, or of a --sort naming output fields; null for perf's
         * default layout (the overhead columns, then the keys).
         *
         * @param children perf's cumulate_callchain (children on a file with callchains)
         */
        public FieldOrder fieldOrder(boolean children) {
            if (fields == null && sortFields == null && !cpuUtilization) {
                return null;
            }
            String sortText = sortFields;
            if (sortText == null && sortGiven) {
                StringBuilder t = new StringBuilder();
                for (SortKey k : sort) {
                    t.append(t.length() == 0 ? "" : ",").append(k == SortKey.SYM ? "symbol" : k.name().toLowerCase(Locale.ROOT));
                }
                sortText = t.toString();
            }
            return FieldOrder.of(sortText, DEFAULT_SORT, fields, children, showSamples, showPeriod, cpuUtilization);
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

        public boolean inline() {
            return inline;
        }

        public boolean showSamples() {
            return showSamples;
        }

        public boolean showPeriod() {
            return showPeriod;
        }

        public boolean fullSourcePath() {
            return fullSourcePath;
        }

        public String symbolFilter() {
            return symbolFilter;
        }

        public boolean skipEmpty() {
            return skipEmpty;
        }

        public boolean quiet() {
            return quiet;
        }

        public String separator() {
            return separator;
        }

        public boolean callchainsAsked() {
            return callchainsAsked;
        }

        public boolean branchHistory() {
            return branchHistory;
        }

        public boolean stitchLbr() {
            return stitchLbr;
        }

        public boolean totalCycles() {
            return totalCycles;
        }

        public Boolean group() {
            return group;
        }

        public int maxStack() {
            return maxStack;
        }

        public boolean hideUnresolved() {
            return hideUnresolved;
        }
    }

    /** perf's default_branch_sort_order. */
    /** perf's default_sort_order. */
    private static final String DEFAULT_SORT = "comm,dso,symbol";
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
        if (o.branchHistory() && (hasCallchains || file.isPipe())) {
            // perf then adds each sample's branch stack to its callchain, sorted by srcline,symbol,dso
            throw new IllegalArgumentException("--branch-history: branch records added to call chains are not computed"
                    + " by jperf yet");
        }
        if ((o.callchainsAsked() || o.branchHistory()) && !hasCallchains && !file.isPipe()) {
            // perf: "Selected -g or --branch-history. But no callchain or branch data."
            throw new IllegalArgumentException(file.name() + ": " + (o.callchainsAsked() ? "-g" : "--branch-history")
                    + " asks for call graphs but the samples have no callchains (recorded without -g?)");
        }
        boolean branch = branchMode(file, o);
        if (o.totalCycles() && branch) {
            // perf's total_cycles_mode, which it keeps in branch mode only (ignored elsewhere, as here)
            throw new IllegalArgumentException("--total-cycles: the blocks' sampled cycles are not computed by jperf yet");
        }
        // branch mode entries are branches: no cumulated callchains, no graphs (perf adds none to them)
        boolean children = o.children() && hasCallchains && !branch;
        FieldOrder order = o.fieldOrder(children);
        if (order != null && branch) {
            throw new IllegalArgumentException("-F/--fields, or output fields in --sort, in branch mode: not supported by jperf yet");
        }
        List<SortKey> sort = order != null ? order.keys() : o.sort(branch);
        for (SortKey k : sort) {
            if (k.branch() && !branch) {
                throw new IllegalArgumentException("Invalid --sort key: `" + k.name().toLowerCase(Locale.ROOT)
                        + "' (a branch mode key: the file has no branch stacks, or --no-branch-stack)");
            }
        }
        // perf's use_callchain: a graph is kept only when the file has callchains
        CallchainParams.Order graph = o.callGraph().enabled() && hasCallchains && !branch
                ? o.callGraph().effectiveOrder(children) : null;
        SymbolResolver resolver = new SymbolResolver(
                SymbolResolver.Options.defaults(o.kallsyms(), o.symfs(), o.buildIdDir()).withDemangle(o.demangle()).withInline(o.inline())
                        .withFullSourcePath(o.fullSourcePath()));
        Session session = new Session(file, resolver,
                new Session.Options(children || graph != null, o.filter(), branch).withMaxStack(o.maxStack())
                        .withHideUnresolved(o.hideUnresolved())
                        .withEvSwitch(EvSwitch.of(file.events(), o.switchOn, o.switchOff, o.showOnOffEvents)));
        Map<EventDesc, Hists> byEvent = new IdentityHashMap<>();
        List<Hists> ordered = new ArrayList<>();
        for (EventDesc e : file.events()) {
            Hists h = order != null ? new Hists(e, order, children, graph, branch) : new Hists(e, sort, children, graph, branch);
            if (e.index() == 0) {
                h.symbolFilter(o.symbolFilter());
            }
            byEvent.put(e, h);
            ordered.add(h);
        }
        // callee order keeps the innermost --max-stack frames of a deeper chain, caller order the outermost
        boolean calleeCut = graph == CallchainParams.Order.CALLEE;
        SampleSink sink = s -> {
            Hists h = byEvent.get(s.event());
            if (h == null) {
                h = order != null ? new Hists(s.event(), order, children, graph, branch)
                        : new Hists(s.event(), sort, children, graph, branch);
                if (s.event().index() == 0) {
                    h.symbolFilter(o.symbolFilter());
                }
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
        };
        if (children && graph == null && PipelinedSink.worthIt()) {
            // the children view's aggregation costs about what resolving does: each gets a core.
            // Not with call graphs: there the graphs' appends set the pace, a second thread gained
            // nothing measurable and its buffers and native memory cost 5-8 MB of peak RSS
            // (bench/README.md); nor for flat views, whose aggregation is cheap
            PipelinedSink pipelined = new PipelinedSink(sink);
            try {
                session.scan(pipelined, calleeCut);
            } catch (RuntimeException | Error e) {
                pipelined.abort();
                throw e;
            }
            pipelined.finish();
        } else {
            session.scan(sink, calleeCut);
        }
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

    /** The report of {@code o.input()} on {@code out}, its notices (AUX trace, srcline) on {@code err}. */
    public static void run(Options o, PrintStream out, PrintStream err) {
        try (PerfDataFile file = PerfDataFile.open(o.input())) {
            run(file, o, out, err);
        }
    }

    /**
     * perf report --tasks (and --mmaps): the threads of {@code file} as a tree, with their maps when
     * {@code mmaps}, in place of the report.
     */
    public static void tasks(PerfDataFile file, Options o, boolean mmaps, PrintStream out) {
        SymbolResolver resolver = new SymbolResolver(SymbolResolver.Options.defaults(o.kallsyms(), o.symfs(), o.buildIdDir()));
        TasksReport.print(file, resolver, mmaps, out);
    }

    /** What perf says of --stitch-lbr on a file without LBR call stacks (report prefixes "Warning:"). */
    public static final String LBR_WARNING = "Can't find LBR callchain. Switch off --stitch-lbr.\n"
            + "Please apply --call-graph lbr when recording.\n";

    /**
     * perf's callchain_param_setup choosing CALLCHAIN_LBR: samples with callchains and branch
     * stacks, without the user stack and registers of DWARF unwinding.
     */
    public static boolean lbrCallchains(PerfDataFile file) {
        long type = 0;
        for (EventDesc e : file.events()) {
            type |= e.attr().sampleType();
        }
        boolean dwarf = (type & PerfEventAttr.PERF_SAMPLE_REGS_USER) != 0 && (type & PerfEventAttr.PERF_SAMPLE_STACK_USER) != 0;
        return (type & PerfEventAttr.PERF_SAMPLE_CALLCHAIN) != 0 && (type & PerfEventAttr.PERF_SAMPLE_BRANCH_STACK) != 0
                && !dwarf;
    }

    /** The report of {@code o.input()} on {@code out}, without its notices. */
    public static void run(Options o, PrintStream out) {
        run(o, out, new PrintStream(OutputStream.nullOutputStream()));
    }

    /**
     * The report of a file already open (a pipe-mode stream on stdin) on {@code out}, its notices on
     * {@code err}; {@code o.input()} is not read.
     */
    public static void run(PerfDataFile file, Options o, PrintStream out, PrintStream err) {
        if (o.stitchLbr()) {
            if (lbrCallchains(file)) {
                throw new IllegalArgumentException("--stitch-lbr: LBR call stacks are not stitched by jperf yet");
            }
            // perf's report__setup_sample_type: the option is switched off, saying so
            err.print("Warning:\n" + LBR_WARNING);
        }
        Result r = aggregate(file, o);
        long samples = 0;
        for (Hists h : r.hists()) {
            samples += h.samples();
        }
        if (samples == 0 && !o.json()) {
            // perf's __cmd_report when no sample made an entry (--time, the switches left none): its
            // header hint, then the error instead of the report
            new StdioReport(out, o.percentLimit(), o.relative(), o.callGraph(), false).elide(o.filter()).quiet(o.quiet())
                    .printPreamble(r.hists().isEmpty() ? List.of() : r.hists().get(0).keys());
            err.print("Error:\nThe " + file.name() + " data has no samples!\n");
            return;
        }
        String aux = auxtraceNotice(file, r);
        if (aux != null) {
            err.println(aux);
        }
        boolean children = false;
        for (Hists h : r.hists()) {
            children |= h.children();
        }
        FieldOrder order = o.fieldOrder(children);
        if (o.json() && order != null) {
            throw new IllegalArgumentException("--json prints perf's default columns: -F/--fields, output fields in --sort"
                    + " or --show-cpu-utilization, not with it");
        }
        // callchain__fprintf_graph's test: no -F, and a --sort starting with "sym"
        boolean symFirst = o.fields != null || o.sortFields != null
                ? o.fields == null && o.sortFields.startsWith("sym") : o.sort().get(0) == SortKey.SYM;
        if (o.json()) {
            new JsonReport(out, o.percentLimit(), o.relative(), o.callGraph(), symFirst)
                    .print(r.hists(), r.session().totalLostSamples());
        } else {
            new StdioReport(out, o.percentLimit(), o.relative(), o.callGraph(), symFirst).fields(order)
                    .elide(o.elide ? o.filter() : SampleFilter.NONE).color(o.color).showSamples(o.showSamples()).showPeriod(o.showPeriod()).quiet(o.quiet()).skipEmpty(o.skipEmpty()).separator(o.separator())
                    .printSections(r.sections(), r.session().totalLostSamples());
        }
        out.flush();
    }
}
