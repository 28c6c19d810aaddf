package dev.jperf.report.top;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.report.aggregate.CallchainParams;
import dev.jperf.report.aggregate.Hists;
import dev.jperf.report.aggregate.SortKey;
import dev.jperf.report.session.CurrentSample;
import dev.jperf.report.session.Frame;
import dev.jperf.report.session.SampleFilter;
import dev.jperf.report.session.SampleSink;
import dev.jperf.report.session.Session;
import dev.jperf.report.symbol.Symbol;
import dev.jperf.report.symbol.SymbolResolver;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * perf top's model: a live pipe-mode stream (the recorder's, in this process) read by report's
 * {@link Session} as it comes, each sample added to its event's {@link Hists} (live: sorted for
 * every refresh, aged by {@link Hists#decay} between refreshes), with perf top's counters for the
 * header line. The session runs on a thread of its own; readers take {@link #locked} views.
 */
public final class TopSession {
    /**
     * @param sort the sort keys (perf top's default: dso,sym)
     * @param children perf's cumulate_callchain (top: with -g)
     * @param callGraph how graphs are kept and printed ({@link CallchainParams#NO_GRAPH}: none)
     * @param hideKernel -K: kernel samples counted in the header, not added
     * @param hideUser -U: user samples counted in the header, not added
     */
    public record Options(List<SortKey> sort, boolean children, CallchainParams callGraph, boolean hideKernel,
            boolean hideUser, Path kallsyms, Path buildIdDir, int maxStack) {
        public Options {
            sort = List.copyOf(sort);
        }
    }

    /**
     * perf 6.1's idle_symbols (symbol__is_idle): kernel functions whose samples perf top counts
     * but does not add, so the idle loop does not fill the screen.
     */
    static final Set<String> IDLE = Set.of("acpi_idle_do_entry", "acpi_processor_ffh_cstate_enter", "arch_cpu_idle",
            "cpu_idle", "cpu_startup_entry", "idle_cpu", "intel_idle", "default_idle", "native_safe_halt", "enter_idle",
            "exit_idle", "mwait_idle", "mwait_idle_with_hints", "mwait_idle_with_hints.constprop.0", "poll_idle",
            "ppc64_runlatch_off", "pseries_dedicated_idle_sleep", "psw_idle", "psw_idle_exit");

    private final Options options;
    private final Object lock = new Object();
    private final Map<EventDesc, Hists> byEvent = new IdentityHashMap<>();
    private final List<Hists> ordered = new ArrayList<>();
    private volatile PerfDataFile file;
    private volatile Session session;
    private volatile Throwable failure;
    private volatile boolean ended;
    private Thread thread;
    /** perf top's counters since the last header (perf_top__reset_sample_counters). */
    private long samples;
    private long kernelSamples;
    private long exactSamples;
    private long lostRecordsWarned;
    private long lostAtReset;

    public TopSession(Options options) {
        this.options = options;
    }

    /** Starts reading {@code stream} (a pipe-mode perf.data stream) on a thread of its own. */
    public void start(InputStream stream) {
        thread = new Thread(() -> run(stream), "jperf-top-session");
        thread.setDaemon(true);
        thread.start();
    }

    private void run(InputStream stream) {
        try {
            PerfDataFile f = PerfDataFile.open("-", stream);
            file = f;
            SymbolResolver resolver = new SymbolResolver(
                    SymbolResolver.Options.defaults(options.kallsyms(), null, options.buildIdDir())).liveHost();
            boolean graph = options.callGraph().enabled();
            Session s = new Session(f, resolver, new Session.Options(options.children() || graph, SampleFilter.NONE)
                    .withMaxStack(options.maxStack()));
            s.live();
            session = s;
            CallchainParams.Order order = graph ? options.callGraph().effectiveOrder(options.children()) : null;
            SampleSink sink = new SampleSink() {
                @Override
                public void sample(CurrentSample c) {
                    add(c, order);
                }
            };
            s.scan(sink, order == CallchainParams.Order.CALLEE);
        } catch (RuntimeException | Error e) {
            failure = e;
        } finally {
            ended = true;
        }
    }

    /** perf top's deliver_event and perf_event__process_sample for one sample. */
    private void add(CurrentSample c, CallchainParams.Order order) {
        synchronized (lock) {
            samples++;
            if ((c.misc() & PerfRecord.PERF_RECORD_MISC_EXACT_IP) != 0) {
                exactSamples++;
            }
            int mode = c.cpumode();
            if (mode == PerfRecord.PERF_RECORD_MISC_KERNEL) {
                kernelSamples++;
                if (options.hideKernel()) {
                    return;
                }
            } else if (mode == PerfRecord.PERF_RECORD_MISC_USER && options.hideUser()) {
                return;
            }
            Frame f = c.frame();
            Symbol sym = f == null ? null : f.symbol();
            if (sym != null && f.kernelSpace() && IDLE.contains(sym.name())) {
                return;
            }
            Hists h = byEvent.get(c.event());
            if (h == null) {
                h = new Hists(c.event(), options.sort(), options.children(), order).live();
                byEvent.put(c.event(), h);
                ordered.add(h);
            }
            h.add(c);
        }
    }

    /** What a refresh reads, under the session's lock (no sample is added meanwhile). */
    public <T> T locked(Function<View, T> read) {
        synchronized (lock) {
            return read.apply(new View());
        }
    }

    /** The session's state during {@link #locked}. */
    public final class View {
        private View() {
        }

        /**
         * The hists perf top shows (its sym_evsel: the first sampling event of the stream), or
         * null before the stream's events are known.
         */
        public Hists hists() {
            EventDesc e = event();
            if (e == null) {
                return null;
            }
            Hists h = byEvent.get(e);
            if (h == null) {
                h = new Hists(e, options.sort(), options.children(), options.callGraph().enabled()
                        ? options.callGraph().effectiveOrder(options.children()) : null).live();
                byEvent.put(e, h);
                ordered.add(h);
            }
            return h;
        }

        /** The first sampling event (not the tracking dummy), or null before the stream's attrs came. */
        public EventDesc event() {
            PerfDataFile f = file;
            if (f == null) {
                return null;
            }
            for (EventDesc e : f.events()) {
                PerfEventAttr a = e.attr();
                if (!(a.type() == PerfEventAttr.PERF_TYPE_SOFTWARE && a.config() == PerfEventAttr.PERF_COUNT_SW_DUMMY)) {
                    return e;
                }
            }
            return null;
        }

        /** The sampling events of the stream (perf top's evlist). */
        public int events() {
            PerfDataFile f = file;
            int n = 0;
            for (EventDesc e : f == null ? List.<EventDesc>of() : f.events()) {
                PerfEventAttr a = e.attr();
                n += a.type() == PerfEventAttr.PERF_TYPE_SOFTWARE && a.config() == PerfEventAttr.PERF_COUNT_SW_DUMMY ? 0 : 1;
            }
            return n;
        }

        public long samples() {
            return samples;
        }

        public long kernelSamples() {
            return kernelSamples;
        }

        public long exactSamples() {
            return exactSamples;
        }

        /** PERF_RECORD_LOST records so far, and their lost counts (perf's lost_total). */
        public long lostRecords() {
            Session s = session;
            return s == null ? 0 : s.lostRecords();
        }

        public long lostTotal() {
            Session s = session;
            return s == null ? 0 : s.lostEvents();
        }

        /**
         * perf's nr_lost_warned: the LOST records not yet warned about, now warned (0 when none
         * came since the last call).
         */
        public long takeLostWarning() {
            long n = lostRecords();
            if (n == lostRecordsWarned) {
                return 0;
            }
            lostRecordsWarned = n;
            return n;
        }

        /** Events lost since {@link #resetCounters} (perf top's lost). */
        public long lost() {
            return lostTotal() - lostAtReset;
        }

        /** perf_top__reset_sample_counters. */
        public void resetCounters() {
            lostAtReset = lostTotal();
            samples = 0;
            kernelSamples = 0;
            exactSamples = 0;
        }

        /** perf top's refresh after printing: the entries aged (or deleted with -z). */
        public void decay(boolean zero) {
            for (Hists h : ordered) {
                h.decay(zero);
            }
        }

        /** The session's symbols and threads (annotation reads them). */
        public Session session() {
            return session;
        }
    }

    /**
     * Waits up to {@code ms} for the stream's events (perf top prints its first screen once the
     * events are open); false if they did not come.
     */
    public boolean awaitEvents(long ms) throws InterruptedException {
        long until = System.nanoTime() + ms * 1_000_000L;
        while (locked(v -> v.event()) == null) {
            if (ended || System.nanoTime() >= until) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    /** Whether the stream ended (the recorder stopped) or failed. */
    public boolean ended() {
        return ended;
    }

    /** What ended the session with an error, or null. */
    public Throwable failure() {
        return failure;
    }

    /** Waits up to {@code ms} for the session to read the rest of its stream. */
    public void join(long ms) throws InterruptedException {
        if (thread != null) {
            thread.join(ms);
        }
    }
}
