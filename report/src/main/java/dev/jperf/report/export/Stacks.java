package dev.jperf.report.export;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.report.session.CurrentSample;
import dev.jperf.report.session.Frame;
import dev.jperf.report.session.Machine;
import dev.jperf.report.session.SampleFilter;
import dev.jperf.report.session.SampleSink;
import dev.jperf.report.session.Session;
import dev.jperf.report.symbol.SymbolResolver;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every sample of a file streamed into a {@link StackTree}: the root's children are the samples'
 * comms, below them the callchain's frames caller first (the sample's own frame last). At
 * {@link Granularity#ADDRESS} each {@link Frame} is its own key (a node is one address in one
 * mapping: pprof's locations); at {@link Granularity#SYMBOL} frames of one symbol (or, without
 * one, of one DSO) share a key, except JITed BPF frames, which keep their addresses for their
 * source lines: far fewer distinct stacks (folded stacks, flame graphs). Samples the report's filters
 * mark are left out (perf does not show their entries) but counted in the totals, as perf's
 * percentages count them; a file without callchains gives one frame per stack.
 */
public final class Stacks implements SampleSink {
    /** What tells two frames apart. */
    public enum Granularity { ADDRESS, SYMBOL }

    /** The key of frames without DSO at {@link Granularity#SYMBOL}. */
    private static final Object NO_DSO = new Object();
    private final List<EventDesc> events;
    private final StackTree tree;
    private final List<Object> keys = new ArrayList<>();
    /** Key by Frame, Symbol, Dso or {@link #NO_DSO}. */
    private final Map<Object, Integer> frameKeys = new IdentityHashMap<>();
    private final Granularity granularity;
    private final Map<String, Integer> commKeys = new HashMap<>();
    private final long[] totalSamples;
    private final long[] totalPeriod;
    private final boolean callchains;
    private final Session session;
    /** The first and last time of the samples kept (perf's clock, ns; 0 when none). */
    private long firstTime;
    private long lastTime;
    /** The last frame looked up and its key: consecutive samples share most frames. */
    private Frame lastFrame;
    private int lastKey;

    private Stacks(PerfDataFile file, Session session, boolean callchains, Granularity granularity) {
        this.events = file.events();
        this.granularity = granularity;
        this.session = session;
        this.callchains = callchains;
        int n = Math.max(1, events.size());
        this.tree = new StackTree(n);
        this.totalSamples = new long[n];
        this.totalPeriod = new long[n];
    }

    /**
     * Reads every sample of {@code file}, resolving symbols as {@code symbols} says and marking
     * what {@code filter} excludes.
     */
    public static Stacks collect(PerfDataFile file, SymbolResolver.Options symbols, SampleFilter filter,
            Granularity granularity) {
        return collect(file, symbols, filter, granularity, Machine.PERF_MAX_STACK_DEPTH, false);
    }

    /** {@link #collect} with report's --max-stack and -U, which shape the stacks as they shape its graphs. */
    public static Stacks collect(PerfDataFile file, SymbolResolver.Options symbols, SampleFilter filter,
            Granularity granularity, int maxStack, boolean hideUnresolved) {
        boolean callchains = hasCallchains(file);
        Session session = new Session(file, new SymbolResolver(symbols), new Session.Options(callchains, filter)
                .withMaxStack(maxStack).withHideUnresolved(hideUnresolved));
        Stacks s = new Stacks(file, session, callchains, granularity);
        // caller order keeps the outermost frames of a chain deeper than perf's maximum, as report's default
        session.scan(s, false);
        return s;
    }

    /** Whether any event of {@code file} samples callchains (PERF_SAMPLE_CALLCHAIN). */
    public static boolean hasCallchains(PerfDataFile file) {
        for (EventDesc e : file.events()) {
            if ((e.attr().sampleType() & PerfEventAttr.PERF_SAMPLE_CALLCHAIN) != 0) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void sample(CurrentSample s) {
        int ev = Math.min(s.event().index(), totalSamples.length - 1);
        totalSamples[ev]++;
        totalPeriod[ev] += s.period();
        if (s.filtered()) {
            return;
        }
        long t = s.time();
        if (t != 0) {
            firstTime = firstTime == 0 ? t : Math.min(firstTime, t);
            lastTime = Math.max(lastTime, t);
        }
        int node = tree.child(StackTree.ROOT, commKey(s.comm()));
        int n = s.callchainLength();
        if (n <= 0) {
            node = tree.child(node, frameKey(s.frame()));
        } else {
            Frame[] chain = s.callchainFrames();
            for (int i = 0; i < n; i++) {
                node = tree.child(node, frameKey(chain[i]));
            }
        }
        tree.add(node, ev, 1, s.period());
    }

    private int commKey(String comm) {
        Integer k = commKeys.get(comm);
        if (k == null) {
            k = keys.size();
            keys.add(comm);
            commKeys.put(comm, k);
        }
        return k;
    }

    private int frameKey(Frame f) {
        if (f == lastFrame) {
            return lastKey;
        }
        Object id = f;
        if (granularity == Granularity.SYMBOL && !FrameKind.isBpf(f)) {
            id = f.symbol() != null ? f.symbol() : f.dso() != null ? f.dso() : NO_DSO;
        }
        Integer k = frameKeys.get(id);
        if (k == null) {
            // the first frame of a key stands for all (same name, DSO and kind)
            k = keys.size();
            keys.add(f);
            frameKeys.put(id, k);
        }
        lastFrame = f;
        lastKey = k;
        return k;
    }

    StackTree tree() {
        return tree;
    }

    /** The comm of a depth-1 node's key. */
    String comm(int key) {
        return (String) keys.get(key);
    }

    /** The frame of a deeper node's key. */
    Frame frame(int key) {
        return (Frame) keys.get(key);
    }

    public List<EventDesc> events() {
        return events;
    }

    /** Samples of event {@code e}, filtered ones included (perf's percentages are of these). */
    public long totalSamples(int e) {
        return totalSamples[e];
    }

    public long totalPeriod(int e) {
        return totalPeriod[e];
    }

    /** Whether the file's samples have callchains (else every stack is the sample's frame alone). */
    public boolean callchains() {
        return callchains;
    }

    /** From the first to the last sample kept, in ns (0 without sample times). */
    public long duration() {
        return lastTime - firstTime;
    }

    public Session session() {
        return session;
    }
}
