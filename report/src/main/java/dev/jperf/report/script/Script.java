package dev.jperf.report.script;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.report.session.Session;
import dev.jperf.report.symbol.SymbolResolver;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/** {@code jperf script}: every sample (and chosen side-band record) of a file as text or JSON lines. */
public final class Script {
    /**
     * perf script's options, named as perf names them.
     *
     * @param fields -F, or null for perf's defaults
     * @param hideCallGraph -G: no callchains even when the file has them
     * @param json one JSON object per line instead of text
     * @param showRoundEvents also perf's ordered_events = false: every record in file order
     */
    public record Options(Path kallsyms, Path symfs, String fields, boolean hideCallGraph,
            boolean showBpfEvents, boolean showMmapEvents, boolean showTaskEvents, boolean json, boolean demangle,
            boolean showLostEvents, boolean showSwitchEvents, boolean showNamespaceEvents, boolean showCgroupEvents,
            boolean showRoundEvents) {
        /** Without the lost, switch, namespace, cgroup and round events. */
        public Options(Path kallsyms, Path symfs, String fields, boolean hideCallGraph,
                boolean showBpfEvents, boolean showMmapEvents, boolean showTaskEvents, boolean json, boolean demangle) {
            this(kallsyms, symfs, fields, hideCallGraph, showBpfEvents, showMmapEvents, showTaskEvents, json, demangle,
                    false, false, false, false, false);
        }

        /** Demangling user-space names, as perf script does by default. */
        public Options(Path kallsyms, Path symfs, String fields, boolean hideCallGraph,
                boolean showBpfEvents, boolean showMmapEvents, boolean showTaskEvents, boolean json) {
            this(kallsyms, symfs, fields, hideCallGraph, showBpfEvents, showMmapEvents, showTaskEvents, json, true);
        }
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

    /** Prints {@code file} to {@code out}; its warnings stay on the file for the caller to print. */
    public static void run(PerfDataFile file, Options o, OutputStream out) {
        OutputFields requested = o.fields() == null ? OutputFields.defaults() : OutputFields.parse(o.fields());
        try {
            boolean useCallchain = false;
            for (EventDesc e : file.events()) {
                useCallchain |= !o.hideCallGraph() && (e.attr().sampleType() & PerfEventAttr.PERF_SAMPLE_CALLCHAIN) != 0;
            }
            SymbolResolver resolver = new SymbolResolver(
                    SymbolResolver.Options.defaults(o.kallsyms(), o.symfs()).withDemangle(o.demangle()));
            Session session = new Session(file, resolver, new Session.Options(useCallchain, null, null, null, null));
            if (o.showRoundEvents()) {
                session.deliverInFileOrder();
            }
            if (o.json()) {
                BufferedOutputStream bo = new BufferedOutputStream(out, 1 << 16);
                ScriptJson json = new ScriptJson(bo, session.machine(), file.events(), requested, useCallchain, o,
                        arch(file, requested));
                session.run(json);
                json.finish();
                flush(bo);
            } else {
                ScriptPrinter p = new ScriptPrinter(new LineWriter(out), session.machine(), file.events(), requested,
                        useCallchain, o, arch(file, requested));
                PipelinedPrinter pp = new PipelinedPrinter(p, session.machine(), file.events(), o);
                try {
                    session.run(pp);
                } catch (RuntimeException e) {
                    pp.abort();
                    throw e;
                }
                pp.finish();
            }
        } catch (UncheckedIOException e) {
            // the reader went away (script | head): stop quietly, as perf does on SIGPIPE
            if (!String.valueOf(e.getCause().getMessage()).contains("Broken pipe")) {
                throw e;
            }
        }
    }
}
