package dev.jperf.report.script;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.report.session.Machine;
import dev.jperf.report.session.ResolvedSample;
import dev.jperf.report.session.SampleConsumer;
import dev.jperf.report.session.SampleFilter;
import dev.jperf.report.session.Session;
import dev.jperf.report.symbol.SymbolResolver;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;

/** {@code jperf script}: every sample (and chosen side-band record) of a file as text or JSON lines. */
public final class Script {
    /** The side-band records a --show-<kind>-events option prints (perf_script's show_*_events). */
    public enum Show {
        /** KSYMBOL, BPF_EVENT. */
        BPF,
        /** MMAP, MMAP2. */
        MMAP,
        /** COMM, FORK, EXIT. */
        TASK,
        LOST,
        SWITCH,
        NAMESPACE,
        CGROUP,
        /** FINISHED_ROUND; also perf's ordered_events = false: every record in file order. */
        ROUND
    }

    /**
     * perf script's options, named as perf names them: {@link #defaults()} and the with* methods
     * set one each.
     *
     * @param buildIdDir --buildid-dir, or null for PERF_BUILDID_DIR or ~/.debug
     * @param fields -F, or null for perf's defaults
     * @param hideCallGraph -G: no callchains even when the file has them
     * @param json one JSON object per line instead of text
     * @param demangle user-space names demangled (perf script's default)
     * @param inline --inline (perf's default)/--no-inline: inlined functions' frames in DWARF-unwound chains
     * @param shown the --show-*-events given
     * @param time the time field: since boot (perf's default), since the first line (--reltime) or
     *     since the line before (--deltatime)
     * @param nanoseconds --ns: the time field in nanoseconds
     * @param maxStack --max-stack: the innermost callchain entries kept (perf's default 127)
     * @param filter --comms, --pid, --tid, --cpu, --time, --dsos, -S: the samples not printed
     * @param stopBt --stop-bt: a callchain is printed down to the first frame of one of these symbols
     * @param debugMode -d/--debug-mode: samples are not printed but checked for order (perf's
     *     misordered count on stderr); side-band records are printed as without it
     * @param fullSourcePath --full-source-path: srcline names its file's whole path
     */
    public record Options(Path kallsyms, Path symfs, Path buildIdDir, String fields, boolean hideCallGraph,
            boolean json, boolean demangle, boolean inline, Set<Show> shown, TimeBase time, boolean nanoseconds, int maxStack,
            SampleFilter filter, Set<String> stopBt, boolean debugMode, boolean fullSourcePath) {
        public Options {
            shown = Set.copyOf(shown);
            stopBt = Set.copyOf(stopBt);
        }

        /** --max-stack. */
        public Options withMaxStack(int maxStack) {
            return new Options(kallsyms, symfs, buildIdDir, fields, hideCallGraph, json, demangle, inline, shown, time, nanoseconds, maxStack, filter, stopBt, debugMode, fullSourcePath);
        }

        /** perf script without options. */
        public static Options defaults() {
            return new Options(null, null, null, null, false, false, true, true, Set.of(), TimeBase.BOOT, false, Machine.PERF_MAX_STACK_DEPTH,
                    SampleFilter.NONE, Set.of(), false, false);
        }

        /** -k/--kallsyms and --symfs (either may be null). */
        public Options withSymbols(Path kallsyms, Path symfs) {
            return new Options(kallsyms, symfs, buildIdDir, fields, hideCallGraph, json, demangle, inline, shown, time, nanoseconds, maxStack, filter, stopBt, debugMode, fullSourcePath);
        }

        /** --buildid-dir: the build-id cache (null: PERF_BUILDID_DIR, else ~/.debug). */
        public Options withBuildIdDir(Path buildIdDir) {
            return new Options(kallsyms, symfs, buildIdDir, fields, hideCallGraph, json, demangle, inline, shown, time, nanoseconds, maxStack, filter, stopBt, debugMode, fullSourcePath);
        }

        public Options withFields(String fields) {
            return new Options(kallsyms, symfs, buildIdDir, fields, hideCallGraph, json, demangle, inline, shown, time, nanoseconds, maxStack, filter, stopBt, debugMode, fullSourcePath);
        }

        public Options withHideCallGraph(boolean hideCallGraph) {
            return new Options(kallsyms, symfs, buildIdDir, fields, hideCallGraph, json, demangle, inline, shown, time, nanoseconds, maxStack, filter, stopBt, debugMode, fullSourcePath);
        }

        public Options withJson(boolean json) {
            return new Options(kallsyms, symfs, buildIdDir, fields, hideCallGraph, json, demangle, inline, shown, time, nanoseconds, maxStack, filter, stopBt, debugMode, fullSourcePath);
        }

        public Options withInline(boolean inline) {
            return new Options(kallsyms, symfs, buildIdDir, fields, hideCallGraph, json, demangle, inline, shown, time, nanoseconds, maxStack, filter, stopBt, debugMode, fullSourcePath);
        }

        public Options withDemangle(boolean demangle) {
            return new Options(kallsyms, symfs, buildIdDir, fields, hideCallGraph, json, demangle, inline, shown, time, nanoseconds, maxStack, filter, stopBt, debugMode, fullSourcePath);
        }

        /** {@code kind} shown or not, as its --show-<kind>-events option is given or not. */
        public Options withShow(Show kind, boolean show) {
            EnumSet<Show> s = EnumSet.noneOf(Show.class);
            s.addAll(shown);
            if (show) {
                s.add(kind);
            } else {
                s.remove(kind);
            }
            return new Options(kallsyms, symfs, buildIdDir, fields, hideCallGraph, json, demangle, inline, s, time, nanoseconds, maxStack, filter, stopBt, debugMode, fullSourcePath);
        }

        /** --reltime / --deltatime. */
        public Options withTime(TimeBase time) {
            return new Options(kallsyms, symfs, buildIdDir, fields, hideCallGraph, json, demangle, inline, shown, time, nanoseconds, maxStack, filter, stopBt, debugMode, fullSourcePath);
        }

        /** The sample filters, as report's: a sample they mark filtered is not printed (perf's al.filtered). */
        public Options withFilter(SampleFilter filter) {
            return new Options(kallsyms, symfs, buildIdDir, fields, hideCallGraph, json, demangle, inline, shown, time, nanoseconds, maxStack, filter, stopBt, debugMode, fullSourcePath);
        }

        /** --stop-bt. */
        public Options withStopBt(Set<String> stopBt) {
            return new Options(kallsyms, symfs, buildIdDir, fields, hideCallGraph, json, demangle, inline, shown, time, nanoseconds, maxStack, filter, stopBt, debugMode, fullSourcePath);
        }

        /** -d/--debug-mode. */
        public Options withDebugMode(boolean debugMode) {
            return new Options(kallsyms, symfs, buildIdDir, fields, hideCallGraph, json, demangle, inline, shown, time, nanoseconds, maxStack, filter, stopBt, debugMode, fullSourcePath);
        }

        /** --full-source-path. */
        public Options withFullSourcePath(boolean fullSourcePath) {
            return new Options(kallsyms, symfs, buildIdDir, fields, hideCallGraph, json, demangle, inline, shown, time, nanoseconds, maxStack, filter, stopBt, debugMode, fullSourcePath);
        }

        /** --ns. */
        public Options withNanoseconds(boolean nanoseconds) {
            return new Options(kallsyms, symfs, buildIdDir, fields, hideCallGraph, json, demangle, inline, shown, time, nanoseconds, maxStack, filter, stopBt, debugMode, fullSourcePath);
        }

        public boolean shows(Show kind) {
            return shown.contains(kind);
        }
    }

    /** What the time field counts from: boot (the sample's time), the first line printed, or the line before. */
    public enum TimeBase {
        BOOT, FIRST, PREVIOUS
    }

    private Script() {
    }

    private static void flush(OutputStream o) {
        try {
            o.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The recording machine's arch (HEADER_ARCH) when registers are printed, else this machine's,
     * as perf_env__arch falls back to uname.
     */
    private static String arch(PerfDataFile file, OutputFields f) {
        if (!f.has(OutputFields.Field.IREGS) && !f.has(OutputFields.Field.UREGS)) {
            return "";
        }
        return file.features().arch().orElse(System.getProperty("os.arch"));
    }

    /**
     * perf script's debug_mode: each sample's time checked against the one before (said on
     * stderr when it goes back), the sample itself not printed.
     */
    private static final class MisorderCheck {
        long last;
        long misordered;

        SampleConsumer around(SampleConsumer printer) {
            return new SampleConsumer() {
                @Override
                public void sample(ResolvedSample s) {
                    long t = s.record().time();
                    if (Long.compareUnsigned(t, last) < 0) {
                        System.err.println("Samples misordered, previous: " + Long.toUnsignedString(last)
                                + " this: " + Long.toUnsignedString(t));
                        misordered++;
                    }
                    last = t;
                }

                @Override
                public void sideBand(PerfRecord r) {
                    printer.sideBand(r);
                }
            };
        }
    }

    /** Prints {@code file} to {@code out}; its warnings stay on the file for the caller to print. */
    public static void run(PerfDataFile file, Options o, OutputStream out) {
        OutputFields requested = o.fields() == null ? OutputFields.defaults() : OutputFields.parse(o.fields());
        try {
            boolean useCallchain = false;
            for (EventDesc e : file.events()) {
                useCallchain |= !o.hideCallGraph() && (e.attr().sampleType() & PerfEventAttr.PERF_SAMPLE_CALLCHAIN) != 0;
            }
            SymbolResolver resolver = new SymbolResolver(
                    SymbolResolver.Options.defaults(o.kallsyms(), o.symfs(), o.buildIdDir()).withDemangle(o.demangle()).withInline(o.inline())
                            .withFullSourcePath(o.fullSourcePath()));
            Session session = new Session(file, resolver, new Session.Options(useCallchain, o.filter()).withMaxStack(o.maxStack()));
            if (o.shows(Show.ROUND)) {
                session.deliverInFileOrder();
            }
            MisorderCheck check = o.debugMode() ? new MisorderCheck() : null;
            if (o.json()) {
                BufferedOutputStream bo = new BufferedOutputStream(out, 1 << 16);
                ScriptJson json = new ScriptJson(bo, session.machine(), file.events(), requested, useCallchain, o,
                        arch(file, requested));
                session.run(check == null ? json : check.around(json));
                json.finish();
                flush(bo);
            } else {
                ScriptPrinter p = new ScriptPrinter(new LineWriter(out), session.machine(), file.events(), requested,
                        useCallchain, o, arch(file, requested));
                PipelinedPrinter pp = new PipelinedPrinter(p, session.machine(), file.events(), o);
                try {
                    session.run(check == null ? pp : check.around(pp));
                } catch (RuntimeException e) {
                    pp.abort();
                    throw e;
                }
                pp.finish();
            }
            if (check != null) {
                System.err.println("Misordered timestamps: " + check.misordered);
            }
        } catch (UncheckedIOException e) {
            // the reader went away (script | head): stop quietly, as perf does on SIGPIPE
            if (!String.valueOf(e.getCause().getMessage()).contains("Broken pipe")) {
                throw e;
            }
        }
    }
}
