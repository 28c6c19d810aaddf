package dev.jperf.report.aggregate;

import dev.jperf.format.header.EventDesc;
import dev.jperf.report.session.Frame;
import dev.jperf.report.session.CurrentSample;
import dev.jperf.format.collect.HashIndex;
import dev.jperf.report.symbol.Dso;
import dev.jperf.report.symbol.Symbol;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The histogram of one event (perf's struct hists): entries keyed by the sort keys, self periods
 * and, in children mode, periods accumulated over callchains the way perf does it (each distinct
 * entry of a sample's callchain counted once). Sorted for output in perf's order: children, self,
 * then each key's sort order, then perf's insertion-tree order.
 */
public final class Hists {
    private final EventDesc event;
    private final List<SortKey> keys;
    /** {@link #keys} for the comparators: iterating a List allocates an iterator per call under C1. */
    private final SortKey[] keyArray;
    private final boolean children;
    /** perf's sort list when it is not the default (overhead, then the keys): -F, or --sort with output fields. */
    private final Field[] sortList;
    private final boolean hasSym;
    private final boolean hasDso;
    private final boolean hasComm;
    /** perf's need_collapse: a comm key from the sort order (not one -F added). */
    private final boolean collapses;
    /** --symbol-filter: entries whose symbol's name does not contain it are filtered; null: none. */
    private String symbolFilter;
    /** The period of the entries --symbol-filter filtered. */
    private long symbolFiltered;
    /** perf's hists__has(dso): a dso key from the sort order, which sort__sym_cmp leaves DSOs to. */
    private final boolean dsoDimension;
    private final boolean hasThread;
    private final boolean hasCpu;
    /** A srcline or srcfile key: entries per address, compared by perf's text (search mode). */
    private final boolean hasSrc;
    /** A column of one CPU mode's share (sys, usr...): the entries keep their period by mode. */
    private final boolean cpumodes;
    /** perf's branch mode: an entry per branch of the samples' branch stacks, period 1 each. */
    private final boolean branchMode;
    /** The order chains are walked and stored in, or null when no call graph is kept (-g none). */
    private final CallchainParams.Order graphOrder;
    /**
     * Entries by the values of the sort keys that apply (perf's hist_entry__cmp): symbol
     * ({@link Frame#symbolKey()}, or the address when there is none), DSO short name
     * ({@link Frame#dsoKey()}), comm, thread, CPU; the keys that do not apply are constants.
     */
    private final EntryMap entries = new EntryMap();
    /** The nodes of the entries' call graphs (a merged-away entry's stay until the report ends). */
    private final CallchainNodes callchainNodes = new CallchainNodes();
    /**
     * perf's input rb-tree, searched sample by sample, when its comparator is not a total order:
     * sort__sym_cmp orders two entries without symbol by address alone but an entry without one
     * against an entry with one by DSO name first, so a search can pass the existing entry of its
     * key and end at a leaf: perf then makes a second entry of the same key (a BPF function split
     * in two rows, the same address of two DSOs in one row or two). With a DSO key sort__sym_cmp
     * leaves DSOs to that key (perf 6.1.192 has the stable fix "if (!hists__has(hists, dso))"),
     * the order is total and hash lookup finds perf's entries.
     */
    private final EntryTree searchTree;
    /** The shapes' bulk adds (one object: a method reference per call allocates under C1). */
    private final SampleShapes.Sink shapeSink = this::add;
    /** The next search of {@link #searchTree}'s key; null once it went into the tree. */
    private HistEntry probe;
    private final List<HistEntry> created = new ArrayList<>();
    /**
     * The entries after perf's collapse pass, in its tree's order (null until output asks): no
     * sample may be added after that.
     */
    private List<HistEntry> collapsed;
    /**
     * perf's input tree after the collapse pass (entries_collapsed, or entries_in when nothing
     * collapses), whose in-order keys {@link #collapsed} lists; group members' entries are matched
     * in it and a group leader's dummy entries inserted into it (hists__match, hists__link).
     */
    private EntryTree inputTree;
    /** Whether {@link #inputTree}'s comparator says "equal" (search and collapse trees; a replay's never does). */
    private boolean inputTreeFinds;
    /** {@link #collapsed} no longer lists {@link #inputTree}: a dummy entry went in. */
    private boolean collapsedStale;
    private final Map<String, Integer> commKeys = new HashMap<>();
    /**
     * Repeated samples, added in bulk (children mode and call graphs only: the rest is cheap); a
     * shape holds while the searches of its entries do ({@link EntryTree#version()}).
     */
    private final SampleShapes shapes;
    /** The entries the sample being added reaches, and where in its chain ({@link #findEntries}). */
    private HistEntry[] reached = new HistEntry[128];
    private int[] reachedAt = new int[128];
    /** The walk {@link #findEntries} keeps ({@link Walk}): each entry's first frame and version found. */
    private HistEntry[] firsts = new HistEntry[128];
    private int[] firstsAt = new int[128];
    private int[] firstsFound = new int[128];
    /** The last children walk per CPU (its low bits: any walk will do, it is only a start). */
    private final Walk[] walks = new Walk[64];
    /** Bumped per {@link #findEntries}: the walk's entries carry it ({@link HistEntry#walkMark}). */
    private int walkMark;
    /** A chain turned callee first for callee-order graphs. */
    private Frame[] calleeFirst = new Frame[128];
    private long totalPeriod;
    private long samples;
    private long nonFilteredPeriod;
    private long unfilteredSamplesPeriod;
    private long nonFilteredSamples;
    /** {@link #live}: samples keep coming after output, which {@link #decay} ages. */
    private boolean live;

    public Hists(EventDesc event, List<SortKey> keys, boolean children) {
        this(event, keys, children, null);
    }

    /**
     * @param graphOrder the call-graph order when call graphs are kept (perf's use_callchain, with
     *     callchain_param.order in effect), or null
     */
    public Hists(EventDesc event, List<SortKey> keys, boolean children, CallchainParams.Order graphOrder) {
        this(event, keys, children, graphOrder, false);
    }

    /**
     * @param branchMode perf's branch mode (sort__mode == SORT_MODE__BRANCH): samples are added by
     *     their branches ({@link CurrentSample#branchCount()}), without graphs or children
     */
    public Hists(EventDesc event, List<SortKey> keys, boolean children, CallchainParams.Order graphOrder,
            boolean branchMode) {
        this(event, keys, null, null, children, graphOrder, branchMode);
    }

    /**
     * Entries told apart by {@code order}'s keys and put out in its sort list's order (-F, or
     * --sort naming output fields).
     */
    public Hists(EventDesc event, FieldOrder order, boolean children, CallchainParams.Order graphOrder, boolean branchMode) {
        this(event, order.keys(), order.sortList(), order.sortDimensions(), children, graphOrder, branchMode);
    }

    /** @param dimensions the keys perf's sort_dimension__add took ({@link FieldOrder#sorted}); null: all */
    private Hists(EventDesc event, List<SortKey> keys, List<Field> sortList, Set<SortKey> dimensions, boolean children,
            CallchainParams.Order graphOrder, boolean branchMode) {
        this.sortList = sortList == null ? null : sortList.toArray(new Field[0]);
        this.branchMode = branchMode;
        this.graphOrder = graphOrder;
        this.event = event;
        this.keys = List.copyOf(keys);
        this.keyArray = keys.toArray(new SortKey[0]);
        this.children = children;
        this.hasSym = keys.contains(SortKey.SYM);
        this.hasDso = keys.contains(SortKey.DSO);
        this.hasComm = keys.contains(SortKey.COMM);
        Set<SortKey> dims = dimensions == null ? Set.copyOf(keys) : dimensions;
        this.collapses = dims.contains(SortKey.COMM);
        this.dsoDimension = dims.contains(SortKey.DSO);
        this.hasThread = keys.contains(SortKey.PID) || keys.contains(SortKey.TID);
        this.hasCpu = keys.contains(SortKey.CPU);
        this.hasSrc = keys.contains(SortKey.SRCLINE) || keys.contains(SortKey.SRCFILE);
        // branch entries are found by perf's own search, the keys being many; srcline and srcfile
        // entries too, their text made when perf's search first compares them
        this.searchTree = (hasSym && !dsoDimension) || branchMode || hasSrc
                ? new EntryTree((n, node) -> {
                    long c = perfCmp(node, n);
                    return c < 0 ? -1 : c == 0 ? 0 : 1;
                }, true)
                : null;
        boolean modes = false;
        for (int i = 0; this.sortList != null && i < this.sortList.length; i++) {
            modes |= this.sortList[i].hpp() != null && this.sortList[i].hpp().cpumode();
        }
        this.cpumodes = modes;
        // a batch of samples of one shape would mix their CPU modes
        this.shapes = (children || graphOrder != null) && !modes ? new SampleShapes(graphOrder != null) : null;
    }

    public EventDesc event() {
        return event;
    }

    /**
     * perf top's hists: samples are added after the entries were put out (the next output sorts
     * again), and {@link #decay} ages them between refreshes. Without group links (hists__link).
     */
    public Hists live() {
        live = true;
        return this;
    }

    /**
     * perf top's refresh (hists__decay_entries, or hists__delete_entries with {@code zero}): every
     * entry's period, samples and children period scaled by 7/8, its graph's hits too
     * (decay_callchain); an entry whose own period was or becomes 0 is deleted, here emptied and
     * left out of the output until a sample comes to it again. The totals are then those of the
     * entries, as perf's output_resort counts them.
     */
    public void decay(boolean zero) {
        if (!live) {
            throw new IllegalStateException("decay of a report's hists");
        }
        flushPendingShapes();
        collapsed = null;
        inputTree = null;
        collapsedStale = false;
        if (!zero) {
            callchainNodes.decay();
        }
        totalPeriod = 0;
        samples = 0;
        nonFilteredPeriod = 0;
        nonFilteredSamples = 0;
        for (HistEntry e : created) {
            long period = zero ? 0 : e.period * 7 / 8;
            if (period == 0) {
                e.period = 0;
                e.periodAcc = 0;
                e.samples = 0;
                e.callchain = null;
                continue;
            }
            e.period = period;
            e.periodAcc = e.periodAcc * 7 / 8;
            e.samples = e.samples * 7 / 8;
            totalPeriod += e.period;
            samples += e.samples;
            if (!e.filtered) {
                nonFilteredPeriod += e.period;
                nonFilteredSamples += e.samples;
            }
        }
    }

    /** The entries that hold a period (a live hists' emptied ones are deleted in perf). */
    private static List<HistEntry> alive(List<HistEntry> in) {
        List<HistEntry> out = new ArrayList<>(in.size());
        for (HistEntry e : in) {
            if (e.period != 0 || e.periodAcc != 0) {
                out.add(e);
            }
        }
        return out;
    }

    public List<SortKey> keys() {
        return keys;
    }

    public boolean children() {
        return children;
    }

    /** The order of the kept call graphs, or null when there are none. */
    public CallchainParams.Order graphOrder() {
        return graphOrder;
    }

    /** Total period of the samples counted, filtered ones included (perf's "Event count"). */
    public long totalPeriod() {
        return totalPeriod;
    }

    /** Samples counted, filtered ones included (perf's "Samples"). */
    public long samples() {
        return samples;
    }

    /** Period of the samples whose entry is not filtered (perf's total_non_filtered_period). */
    public long nonFilteredPeriod() {
        collapsed();
        return nonFilteredPeriod;
    }

    /**
     * Period of the samples not filtered themselves, whatever their entry (perf diff's
     * total_non_filtered_period, counted per sample as it reads them).
     */
    public long unfilteredSamplesPeriod() {
        return unfilteredSamplesPeriod;
    }

    /**
     * perf's --symbol-filter (hists->symbol_filter_str, the first event's only): applied as
     * hists__collapse_resort applies its filters, so only when a key collapses (comm); an entry
     * without a symbol, or whose name lacks {@code filter}, is filtered.
     */
    public void symbolFilter(String filter) {
        this.symbolFilter = filter;
    }

    /**
     * The total perf's output_resort takes its call-graph threshold from (min_callchain_hits):
     * {@code relative}'s before --symbol-filter's entries are taken out of it, as perf computes it
     * before recounting.
     */
    public long graphThresholdTotal(boolean relative) {
        flushPendingShapes();
        collapsed();
        return relative ? nonFilteredPeriod + symbolFiltered : totalPeriod;
    }

    /** Samples whose entry is not filtered (perf's nr_non_filtered_samples). */
    public long nonFilteredSamples() {
        flushPendingShapes();
        return nonFilteredSamples;
    }

    /**
     * Adds a sample. A sample --comm/--pid/--tid exclude still counts, as in perf: it adds to the
     * entries of its keys, and an entry it creates is filtered (not printed) whatever samples
     * follow; the totals include it unless --percentage relative.
     */
    public void add(CurrentSample s) {
        if (collapsed != null) {
            if (!live) {
                throw new IllegalStateException("sample added after the entries were collapsed for output");
            }
            // top: the next output collapses and sorts again, with these samples
            collapsed = null;
            inputTree = null;
            collapsedStale = false;
        }
        if (branchMode) {
            addBranches(s);
            return;
        }
        long period = s.period();
        samples++;
        totalPeriod += period;
        if (!s.filtered()) {
            unfilteredSamplesPeriod += period;
        }
        int comm = hasComm ? commKey(s.comm()) : -2;
        int tid = hasThread ? s.thread().tid() : -1;
        int cpu = hasCpu ? s.cpu() : -1;
        Frame f = s.frame();
        int n = s.callchainLength();
        Frame[] chain = s.callchainFrames();
        if (graphOrder == CallchainParams.Order.CALLEE && n > 0) {
            // walked and stored in callee order (reused array: nothing keeps it past this call)
            if (calleeFirst.length < n) {
                calleeFirst = new Frame[n];
            }
            for (int i = 0; i < n; i++) {
                calleeFirst[i] = chain[n - 1 - i];
            }
            chain = calleeFirst;
        }
        int slot = SampleShapes.PENDED;
        if (shapes != null && n >= 0) {
            slot = shapes.pend(f, chain, n, s.callchainHash(), s.chainId(), comm, tid, cpu, period, version(), shapeSink);
            if (slot == SampleShapes.PENDED) {
                return;
            }
        }
        int m = findEntries(s, f, chain, n, comm, tid, cpu);
        if (slot != SampleShapes.PENDED) {
            shapes.reached(slot, reached, reachedAt, m, period, version(), shapeSink);
            return;
        }
        add(chain, n, reached, reachedAt, m, period, 1);
        if (cpumodes) {
            reached[0].addCpumode(s.cpumode(), period);
        }
    }

    /**
     * perf's hist_iter_branch: each branch of the sample an entry of period 1 keyed by its target
     * (symbol, DSO, the raw address, the sample's level) and its branch_info; a sample without a
     * branch stack counts nothing.
     */
    private void addBranches(CurrentSample s) {
        int n = s.branchCount();
        for (int i = 0; i < n; i++) {
            Frame to = s.branchTo(i);
            if (probe == null) {
                probe = new HistEntry(s.comm(), s.thread(), to, to.ip(), s.frame().level(), s.cpu(), created.size());
            } else {
                probe.key(s.comm(), s.thread(), to, to.ip(), s.frame().level(), s.cpu(), created.size());
            }
            probe.from = s.branchFrom(i);
            probe.to = to;
            probe.cycles = s.branchCycles(i);
            HistEntry e = searchTree.findOrInsert(probe);
            if (e == null) {
                e = probe;
                probe = null;
                e.filtered = s.filtered();
                created.add(e);
            }
            // hists__findnew_entry: a found entry takes the sample's map
            e.dso = to.dso();
            samples++;
            totalPeriod++;
            if (!e.filtered) {
                nonFilteredSamples++;
                nonFilteredPeriod++;
            }
            e.period++;
            e.periodAcc++;
            e.samples++;
        }
    }

    /**
     * Adds {@code count} samples with {@code period} in all to the entries they reach (the chain in
     * the graph's order): the
     * sample's own ({@code entries[0]}) and, in children mode, each distinct entry of the chain
     * ({@code entries[1..m)}, reached from chain position {@code at[j]}; {@code at} is read for
     * call graphs only, and may be null without them).
     */
    private void add(Frame[] chain, int n, HistEntry[] entries, int[] at, int m, long period, long count) {
        HistEntry self = entries[0];
        if (!self.filtered) {
            nonFilteredSamples += count;
            nonFilteredPeriod += period;
        }
        self.period += period;
        self.periodAcc += period;
        self.samples += count;
        if (n < 0) {
            return;
        }
        if (graphOrder != null) {
            graph(self).append(chain, 0, n, period, count);
        }
        for (int j = 1; j < m; j++) {
            entries[j].periodAcc += period;
            if (graphOrder != null) {
                graph(entries[j]).append(chain, at[j], n, period, count);
            }
        }
    }

    /**
     * The entries a sample reaches, found (or created) as perf finds them, into {@link #reached}
     * and {@link #reachedAt}: its own, then in children mode perf's hist_entry_iter cumulative
     * walk, every distinct entry of the chain once, in the chain's order, each reached from its
     * own frame on. Returns how many.
     */
    private int findEntries(CurrentSample s, Frame f, Frame[] chain, int n, int comm, int tid, int cpu) {
        if (reached.length < n + 1) {
            reached = new HistEntry[n + 1];
            reachedAt = new int[n + 1];
        }
        HistEntry self = entry(s, f, f.addr(), f.level(), comm, tid, cpu);
        reached[0] = self;
        reachedAt[0] = 0;
        int m = 1;
        if (n < 0 || !children) {
            return m;
        }
        // each distinct entry once (a mark per walk), and in search mode perf's check of the
        // chain's earlier entries with hist_entry__cmp before searching (a set of their keys):
        // linear in the chain's length, where perf's loop over its earlier entries is quadratic
        int mark = ++walkMark;
        self.walkMark = mark;
        if (searchTree != null) {
            walkedReset(n + 1);
            markWalked(walkKey(self), walkAddr(self));
        }
        // the walk of the last sample on this CPU: the same outer callers reach the same entries
        // while their searches hold. A walk is kept as every entry's first frame in the chain,
        // the sample's own entry included: this sample's walk is that minus its own entry.
        Walk w = walks[s.cpu() & (walks.length - 1)];
        if (w == null) {
            w = new Walk();
            walks[s.cpu() & (walks.length - 1)] = w;
        }
        w.fit(n);
        if (firsts.length < n + 1) {
            firsts = new HistEntry[n + 1];
            firstsAt = new int[n + 1];
            firstsFound = new int[n + 1];
        }
        int selfFound = version();
        long selfKey = walkKey(self);
        boolean selfAddr = walkAddr(self);
        boolean selfFirst = false;
        int r = 0;
        int start = 0;
        if (w.selfLevel == f.level() && w.comm == comm && w.tid == tid && w.cpu == cpu) {
            int shared = 0;
            for (int end = Math.min(n, w.n); shared < end && chain[shared] == w.chain[shared]; ) {
                shared++;
            }
            start = shared;
            for (int j = 0; j < w.m && w.at[j] < shared; j++) {
                HistEntry e = w.entries[j];
                int p = w.at[j];
                if (searchTree != null ? walkKey(e) == selfKey && walkAddr(e) == selfAddr
                        : e == self) {
                    // this sample's own entry (key): passed over, as perf's walk passes it
                    selfFirst = true;
                    firsts[r] = self;
                    firstsAt[r] = p;
                    firstsFound[r++] = selfFound;
                    continue;
                }
                if (searchTree != null && e.pathStamp > w.found[j]) {
                    // its search may end elsewhere now: the walk goes on from its frame
                    start = p;
                    break;
                }
                if (searchTree != null) {
                    takeMap(e, chain[p]);
                    markWalked(walkKey(e), walkAddr(e));
                }
                e.walkMark = mark;
                reached[m] = e;
                reachedAt[m++] = p;
                firsts[r] = e;
                firstsAt[r] = p;
                firstsFound[r++] = version();
            }
        }
        char level = start == 0 ? f.level() : w.levels[start - 1];
        for (int i = start; i < n; i++) {
            Frame c = chain[i];
            if (c.symbol() != null || c.map() != null) {
                level = c.kernelSpace() ? 'k' : '.';
            }
            w.levels[i] = level;
            if (searchTree != null) {
                long key = hasSrc || c.symbol() == null ? c.ip() : c.symbolKey();
                boolean addr = hasSrc || c.symbol() == null;
                if (walked(key, addr)) {
                    if (!selfFirst && key == selfKey && addr == selfAddr) {
                        selfFirst = true;
                        firsts[r] = self;
                        firstsAt[r] = i;
                        firstsFound[r++] = selfFound;
                    }
                    continue;
                }
            }
            HistEntry e = entry(s, c, c.ip(), level, comm, tid, cpu);
            // each entry once per sample: an entry is found by its key, so same entry = same key
            if (e.walkMark == mark) {
                if (e == self && !selfFirst) {
                    selfFirst = true;
                    firsts[r] = self;
                    firstsAt[r] = i;
                    firstsFound[r++] = selfFound;
                }
                continue;
            }
            e.walkMark = mark;
            if (searchTree != null) {
                markWalked(walkKey(e), walkAddr(e));
            }
            reached[m] = e;
            reachedAt[m++] = i;
            firsts[r] = e;
            firstsAt[r] = i;
            firstsFound[r++] = version();
        }
        w.remember(f.level(), comm, tid, cpu, chain, n, start, firsts, firstsAt, firstsFound, r);
        return m;
    }

    /**
     * A children walk ({@link #findEntries}) as it went: the keys, the chain, every distinct entry of the
     * chain at its first frame (the sample's own too) with the search tree's version it was found
     * at, and the level in effect after each frame.
     */
    private static final class Walk {
        char selfLevel;
        int comm;
        int tid;
        int cpu;
        Frame[] chain = new Frame[128];
        int n;
        HistEntry[] entries = new HistEntry[128];
        int[] at = new int[128];
        int[] found = new int[128];
        int m;
        char[] levels = new char[128];

        /** Room for a chain of n frames. */
        void fit(int n) {
            if (chain.length < n + 1) {
                chain = Arrays.copyOf(chain, n + 1);
                entries = Arrays.copyOf(entries, n + 1);
                at = Arrays.copyOf(at, n + 1);
                found = Arrays.copyOf(found, n + 1);
                levels = Arrays.copyOf(levels, n + 1);
            }
        }

        /** The walk that just ended; its chain's first {@code same} frames are this walk's already. */
        void remember(char selfLevel, int comm, int tid, int cpu, Frame[] chain, int n, int same,
                HistEntry[] firsts, int[] firstsAt, int[] firstsFound, int m) {
            this.selfLevel = selfLevel;
            this.comm = comm;
            this.tid = tid;
            this.cpu = cpu;
            System.arraycopy(chain, same, this.chain, same, n - same);
            this.n = n;
            System.arraycopy(firsts, 0, entries, 0, m);
            System.arraycopy(firstsAt, 0, at, 0, m);
            System.arraycopy(firstsFound, 0, found, 0, m);
            this.m = m;
        }
    }

    /*
     * The keys hist_entry__cmp compares in search mode (sym, no DSO key), of the entries a walk
     * reached: the address without a symbol, else the symbol's key (DSO short name, start, end);
     * the thread and CPU keys are the sample's for all of them. Open addressing, entries of earlier
     * walks told apart by their mark.
     */
    private long[] walkedKeys = new long[512];
    private int[] walkedMarks = new int[512];
    private boolean[] walkedAddr = new boolean[512];

    private void walkedReset(int entries) {
        if (walkedKeys.length < 4 * entries) {
            int cap = Integer.highestOneBit(4 * entries) * 2;
            walkedKeys = new long[cap];
            walkedMarks = new int[cap];
            walkedAddr = new boolean[cap];
        }
    }

    private boolean walked(long key, boolean addr) {
        int mask = walkedKeys.length - 1;
        long h = key * 0x9E3779B97F4A7C15L;
        for (int i = (int) (h ^ (h >>> 32)) & mask; walkedMarks[i] == walkMark; i = (i + 1) & mask) {
            if (walkedKeys[i] == key && walkedAddr[i] == addr) {
                return true;
            }
        }
        return false;
    }

    private void markWalked(long key, boolean addr) {
        int mask = walkedKeys.length - 1;
        long h = key * 0x9E3779B97F4A7C15L;
        int i = (int) (h ^ (h >>> 32)) & mask;
        while (walkedMarks[i] == walkMark) {
            if (walkedKeys[i] == key && walkedAddr[i] == addr) {
                return;
            }
            i = (i + 1) & mask;
        }
        walkedMarks[i] = walkMark;
        walkedKeys[i] = key;
        walkedAddr[i] = addr;
    }

    /**
     * The key a children walk tells its entries apart by: the symbol's, the address without one;
     * with a srcline or srcfile key the address (perf's text of a chain entry is that of its raw ip).
     */
    private long walkKey(HistEntry e) {
        return hasSrc || e.symbol == null ? e.ip : e.symbolKey;
    }

    private boolean walkAddr(HistEntry e) {
        return hasSrc || e.symbol == null;
    }

    /** The search tree's version (0 without one): when the entries' searches were last checked. */
    private int version() {
        return searchTree == null ? 0 : searchTree.version();
    }

    /** Adds the pending samples of repeated shapes: before anything reads the entries. */
    private void flushPendingShapes() {
        if (shapes != null) {
            shapes.flush(shapeSink);
        }
    }

    private static int maxDepth(HistEntry e) {
        return e.callchain == null ? 0 : e.callchain.maxDepth();
    }

    private Callchain graph(HistEntry e) {
        Callchain c = e.callchain;
        if (c == null) {
            c = new Callchain(callchainNodes);
            e.callchain = c;
        }
        return c;
    }

    private int commKey(String comm) {
        Integer k = commKeys.get(comm);
        if (k == null) {
            k = commKeys.size();
            commKeys.put(comm, k);
        }
        return k;
    }

    /**
     * perf's hists__findnew_entry gives a found entry the sample's map: its DSO now decides the
     * entry's comparisons (by short name: only another name changes them).
     */
    private void takeMap(HistEntry e, Frame f) {
        if (e.dso != f.dso()) {
            if (e.dso == null || f.dso() == null || !e.dso.shortName().equals(f.dso().shortName())) {
                searchTree.changed(e);
            }
            e.dso = f.dso();
        }
    }

    /** The entry of these key values, created (with the sample's values) when new. */
    private HistEntry entry(CurrentSample s, Frame f, long ip, char level, int comm, int tid, int cpu) {
        long k0 = hasSrc || hasSym && f.symbolKey() < 0 ? ip : 0;
        long k1 = ((long) (hasSym || hasSrc ? f.symbolKey() : -2) << 32)
                | ((hasDso || searchTree != null ? f.dsoKey() : -2) & 0xffffffffL);
        long k2 = ((long) comm << 32) | (tid & 0xffffffffL);
        int i = entries.find(k0, k1, k2, cpu);
        if (searchTree != null) {
            // the entry found for these values before, while the search to it takes the same path
            HistEntry e = i >= 0 && entries.value(i).pathStamp <= entries.stamp(i) ? entries.value(i) : null;
            if (e == null) {
                if (probe == null) {
                    probe = new HistEntry(s.comm(), s.thread(), f, ip, level, s.cpu(), created.size());
                } else {
                    probe.key(s.comm(), s.thread(), f, ip, level, s.cpu(), created.size());
                }
                e = searchTree.findOrInsert(probe);
                if (e == null) {
                    e = probe;
                    probe = null;
                    e.filtered = s.filtered();
                    created.add(e);
                }
            }
            takeMap(e, f);
            if (i < 0) {
                i = entries.insert(-i - 1, k0, k1, k2, cpu, e);
            }
            entries.set(i, e, searchTree.version());
            return e;
        }
        if (i >= 0) {
            return entries.value(i);
        }
        HistEntry e = new HistEntry(s.comm(), s.thread(), f, ip, level, s.cpu(), created.size());
        e.filtered = s.filtered();
        entries.insert(-i - 1, k0, k1, k2, cpu, e);
        created.add(e);
        return e;
    }

    /**
     * The entries in perf's output order: perf's input rb-tree (the search tree itself, or replayed
     * in creation order with perf's comparators), collapsed with a COMM key (see {@link #collapse}),
     * whose in-order walk breaks ties, then a stable sort by children, self and each key's sort order.
     */
    public List<HistEntry> sorted() {
        return sorted(Set.of());
    }

    /**
     * The entries in perf's output order, the {@code elided} keys left out of its tie-breaks as
     * perf leaves elided columns out of hist_entry__sort (perf_hpp__should_skip).
     */
    public List<HistEntry> sorted(Set<SortKey> elided) {
        return sorted(elided, null);
    }

    /**
     * {@link #sorted(Set)} with {@code afterSelf} breaking ties of the self period before the keys
     * do (a group leader's members' periods: perf's __hpp__sort in group view), or null.
     */
    public List<HistEntry> sorted(Set<SortKey> elided, Comparator<HistEntry> afterSelf) {
        List<HistEntry> in = collapsed();
        // perf's output_resort: each entry, in input-tree order, inserted into the output rb-tree,
        // going left when hist_entry__sort(new, node) > 0 (not a total order: see perfSort)
        OutputOrder sort = new OutputOrder(elided, afterSelf);
        if (afterSelf == null && !(children && graphOrder != null) && sort.total()) {
            // an order that is total (ties aside) and compares without side effects: the tree's
            // in-order walk is the input order sorted stably (equal entries go right, after the
            // earlier ones), without a tree (94k entries: ~5x faster)
            List<HistEntry> out = new ArrayList<>(in);
            out.sort(sort);
            for (HistEntry e : in) {
                widths(e);
            }
            return out;
        }
        TreeMap<HistEntry, HistEntry> tree = new TreeMap<>((n, node) -> n == node ? 0 : perfSort(sort, n, node) > 0 ? -1 : 1);
        for (HistEntry e : in) {
            tree.put(e, e);
            widths(e);
        }
        return new ArrayList<>(tree.keySet());
    }

    /** perf's hists__calc_col_len of an entry the output sort placed: the srclines made so far. */
    private static void widths(HistEntry e) {
        e.srclineFromWidth = e.srclineFrom == null ? 0 : e.srclineFrom.length();
        e.srclineToWidth = e.srclineTo == null ? 0 : e.srclineTo.length();
        e.srclineWidth = e.srcline == null ? 0 : e.srcline.length();
        e.srcfileWidth = e.srcfile == null ? 0 : e.srcfile.length();
    }

    /** The entries perf's output_resort walks, collapsed once. */
    private List<HistEntry> collapsed() {
        if (collapsed == null) {
            flushPendingShapes();
            // the search tree is perf's input tree as it is; a replay would compare today's DSOs
            // a live hists' emptied entries are perf's deleted ones: not in its input tree
            EntryTree in = searchTree != null ? searchTree : replay(live ? alive(created) : created);
            inputTree = collapses ? collapse(in.keys()) : in;
            inputTreeFinds = collapses || searchTree != null;
            if (collapses && symbolFilter != null) {
                for (HistEntry e : inputTree.keys()) {
                    if (!e.filtered && (e.symbol == null || !e.symbol.name().contains(symbolFilter))) {
                        e.filtered = true;
                        nonFilteredPeriod -= e.period;
                        symbolFiltered += e.period;
                    }
                }
            }
            collapsedStale = true;
        }
        if (collapsedStale) {
            collapsed = live ? alive(inputTree.keys()) : inputTree.keys();
            collapsedStale = false;
        }
        return collapsed;
    }

    /**
     * perf's hists__find_entry: the entry of the collapsed tree that hist_entry__collapse finds
     * equal to {@code probe} on its search path, or null.
     */
    HistEntry find(HistEntry probe) {
        collapsed();
        // a replay's tree never says equal, but its order is total (a DSO key, or no symbol key):
        // the greatest entry not after the probe is the equal one if there is one
        HistEntry e = inputTreeFinds ? inputTree.get(probe) : inputTree.lower(probe);
        return e != null && perfCmp(e, probe) == 0 ? e : null;
    }

    /**
     * perf's hists__add_dummy_entry: the entry equal to {@code pair}, else a new one with its key
     * values and no period, inserted where perf's collapsed tree puts it (a group leader's row for
     * what only a member sampled).
     */
    HistEntry addDummy(HistEntry pair) {
        HistEntry e = find(pair);
        if (e == null) {
            e = new HistEntry(pair.comm, pair.thread, pair.dso, pair.symbol, pair.ip, pair.level, pair.cpu);
            e.filtered = pair.filtered;
            e.from = pair.from;
            e.to = pair.to;
            e.cycles = pair.cycles;
            inputTree.findOrInsert(e);
            collapsedStale = true;
        }
        return e;
    }

    /** The entries of the collapsed tree, in its order (perf's rb_first .. rb_next walk). */
    List<HistEntry> inputEntries() {
        return collapsed();
    }

    /**
     * perf's hists__collapse_resort, which runs when a sort key has se_collapse (of these keys only
     * COMM: its collapse is its cmp, so the comparator is the input tree's): the input tree's entries,
     * in order, inserted into a new rb-tree; an entry that compares equal to a node on its path is
     * merged into that node (periods, samples, call graph) and dropped. Entries the input tree split
     * are merged again when the new tree's search meets them, else stay two rows.
     */
    private EntryTree collapse(List<HistEntry> in) {
        EntryTree tree = new EntryTree((n, node) -> {
            long c = perfCmp(node, n);
            return c < 0 ? -1 : c == 0 ? 0 : 1;
        }, false);
        for (HistEntry e : in) {
            HistEntry iter = tree.findOrInsert(e);
            if (iter == null) {
                continue;
            }
            iter.period += e.period;
            iter.periodAcc += e.periodAcc;
            iter.samples += e.samples;
            iter.periodSys += e.periodSys;
            iter.periodUs += e.periodUs;
            iter.periodGuestSys += e.periodGuestSys;
            iter.periodGuestUs += e.periodGuestUs;
            if (e.callchain != null) {
                graph(iter).merge(e.callchain);
            }
            if (live) {
                // merged: its samples are iter's now, and the next collapse merges only new ones
                e.period = 0;
                e.periodAcc = 0;
                e.samples = 0;
                e.periodSys = 0;
                e.periodUs = 0;
                e.periodGuestSys = 0;
                e.periodGuestUs = 0;
                e.callchain = null;
            }
            // perf sums the non-filtered period over the entries output_resort keeps
            if (iter.filtered != e.filtered) {
                nonFilteredPeriod += iter.filtered ? -e.period : e.period;
            }
        }
        return tree;
    }

    /**
     * perf's hist_entry__sort(a, b): positive when a goes first. With call graphs, entries of equal
     * children period of the same thread put the caller first (__hpp__sort_acc: the deeper
     * callchain in caller order, the shallower in callee order) before self and the keys decide;
     * between threads that rule does not apply, so the order is perf's insertion order.
     */
    private int perfSort(Comparator<HistEntry> sort, HistEntry a, HistEntry b) {
        if (sortList == null && children && graphOrder != null && a.periodAcc == b.periodAcc && a.thread == b.thread) {
            int d = maxDepth(b) - maxDepth(a);
            if (graphOrder == CallchainParams.Order.CALLER) {
                d = -d;
            }
            if (d != 0) {
                return d;
            }
        }
        return -sort.compare(a, b);
    }

    /** Inserts into a red-black tree (same shapes as the kernel's rbtree) as perf does; in-order result. */
    private EntryTree replay(List<HistEntry> seq) {
        // new goes left of a node when perf's cmp(node, new) < 0; never "equal": those were merged already
        EntryTree tree = new EntryTree((n, node) -> {
            long c = perfCmp(node, n);
            return c < 0 ? -1 : 1;
        }, false);
        for (HistEntry e : seq) {
            tree.findOrInsert(e);
        }
        return tree;
    }

    /** perf's hist_entry__cmp over the sort keys (se_cmp, with the argument order perf uses). */
    private long perfCmp(HistEntry l, HistEntry r) {
        if (l == r) {
            // TreeMap's type check of a first key: no comparison perf makes (srclines stay unmade)
            return 0;
        }
        for (SortKey k : keyArray) {
            long c = switch (k) {
                case COMM -> r.comm.compareTo(l.comm);
                case DSO -> dsoCmpPerf(l, r);
                case SYM -> symCmpPerf(l, r, dsoDimension);
                case PID, TID -> (long) r.thread.tid() - l.thread.tid();
                case CPU -> (long) r.cpu - l.cpu;
                case DSO_FROM -> dsoCmp(l.from.dso(), r.from.dso());
                case DSO_TO -> dsoCmp(l.to.dso(), r.to.dso());
                case SYMBOL_FROM -> branchSymCmp(l.from, r.from);
                case SYMBOL_TO -> branchSymCmp(l.to, r.to);
                case CYCLES -> (long) l.cycles - r.cycles;
                case IPC_LBR -> symCmpPerf(l, r, dsoDimension);
                // sort__srcline_from_cmp: strcmp(right, left), each made when first compared
                case SRCLINE_FROM -> srclineFrom(r).compareTo(srclineFrom(l));
                case SRCLINE_TO -> srclineTo(r).compareTo(srclineTo(l));
                // sort__srcline_cmp, sort__srcfile_cmp: left's made first, then right's; strcmp(right, left)
                case SRCLINE -> -l.srcline().compareTo(r.srcline());
                case SRCFILE -> -l.srcfile().compareTo(r.srcfile());
            };
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static String srclineFrom(HistEntry e) {
        if (e.srclineFrom == null) {
            e.srclineFrom = HistEntry.srcline(e.from);
        }
        return e.srclineFrom;
    }

    private static String srclineTo(HistEntry e) {
        if (e.srclineTo == null) {
            e.srclineTo = HistEntry.srcline(e.to);
        }
        return e.srclineTo;
    }

    /**
     * perf's _sort__dso_cmp(l, r), the one DSO comparison: a null DSO compares greater (cmp_null(r, l)),
     * else the short names. sort__dso_from_cmp and sort__dso_to_cmp call it in argument order,
     * sort__dso_cmp ({@link #dsoCmpPerf}) with the arguments swapped.
     */
    private static long dsoCmp(Dso l, Dso r) {
        if (l == null || r == null) {
            // cmp_null(dso_r, dso_l)
            return r == null ? (l == null ? 0 : -1) : 1;
        }
        return l.shortName().compareTo(r.shortName());
    }

    /** sort__sym_from_cmp / sort__sym_to_cmp: raw addresses when neither end has a symbol, else _sort__sym_cmp. */
    private static long branchSymCmp(Frame l, Frame r) {
        Symbol sl = l.symbol();
        Symbol sr = r.symbol();
        if (sl == null && sr == null) {
            return Long.signum(r.ip() - l.ip());
        }
        if (sl == null || sr == null) {
            return sl == null ? -1 : 1;
        }
        if (sl == sr) {
            return 0;
        }
        if (sl.start() != sr.start()) {
            return Long.signum(sr.start() - sl.start());
        }
        return Long.signum(sr.end() - sl.end());
    }

    /** sort__dso_cmp(left, right) = _sort__dso_cmp(right->map, left->map). */
    private static long dsoCmpPerf(HistEntry l, HistEntry r) {
        return dsoCmp(r.dso, l.dso);
    }

    /**
     * sort__sym_cmp: addresses when neither has a symbol, else DSO (unless a DSO key compares them),
     * then an inlined function's name, then symbol start and end.
     */
    private static long symCmpPerf(HistEntry l, HistEntry r, boolean dsoKey) {
        if (l.symbol == null && r.symbol == null) {
            return Long.signum(r.ip - l.ip);
        }
        long d = dsoKey ? 0 : dsoCmpPerf(l, r);
        if (d != 0) {
            return d;
        }
        if (l.symbol == null || r.symbol == null) {
            return l.symbol == null ? -1 : 1;
        }
        if (l.symbol == r.symbol) {
            return 0;
        }
        if (l.symbol.inlined() || r.symbol.inlined()) {
            // inlined functions share their caller's range: the name tells them apart
            int c = l.symbol.name().compareTo(r.symbol.name());
            if (c != 0) {
                return c;
            }
            if (Long.compareUnsigned(l.symbol.start(), r.symbol.end()) <= 0
                    && Long.compareUnsigned(l.symbol.end(), r.symbol.start()) >= 0) {
                return 0;
            }
        }
        if (l.symbol.start() != r.symbol.start()) {
            return Long.signum(r.symbol.start() - l.symbol.start());
        }
        return Long.signum(r.symbol.end() - l.symbol.end());
    }

    /**
     * perf's hist_entry__sort as a comparator (x before y when negative): children, self, the
     * group's members' periods ({@code afterSelf}, when given), then each shown key's sort order.
     * One class, not a chain of comparator lambdas: the output sort compares ~1.5 M times, and C1
     * calls through each link of a chain.
     */
    private final class OutputOrder implements Comparator<HistEntry> {
        private final SortKey[] shown;
        private final Set<SortKey> elided;
        private final Comparator<HistEntry> afterSelf;

        OutputOrder(Set<SortKey> elided, Comparator<HistEntry> afterSelf) {
            this.elided = elided;
            List<SortKey> s = new ArrayList<>();
            for (SortKey k : keyArray) {
                if (!elided.contains(k)) {
                    s.add(k);
                }
            }
            this.shown = s.toArray(new SortKey[0]);
            this.afterSelf = afterSelf;
        }

        /**
         * Whether the keys' orders are total preorders that compare without side effects (no
         * srcline made by a comparison, no sort__sym_cmp mixing addresses and DSOs).
         */
        boolean total() {
            for (SortKey k : shown) {
                switch (k) {
                    case COMM, DSO, SYM, PID, TID, CPU -> {
                    }
                    default -> {
                        return false;
                    }
                }
            }
            return true;
        }

        @Override
        public int compare(HistEntry x, HistEntry y) {
            if (sortList != null) {
                return compareFields(x, y, elided, afterSelf);
            }
            int c;
            if (children) {
                c = Long.compare(y.periodAcc, x.periodAcc);
                if (c != 0) {
                    return c;
                }
            }
            c = Long.compare(y.period, x.period);
            if (c != 0) {
                return c;
            }
            if (afterSelf != null) {
                c = afterSelf.compare(x, y);
                if (c != 0) {
                    return c;
                }
            }
            for (SortKey k : shown) {
                c = keyOrder(k, x, y);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        }
    }

    /**
     * perf's hist_entry__sort over a sort list of output fields and keys: each field's sort in
     * turn (children: __hpp__sort_acc with its rule for equal periods of one thread; overhead and
     * period: the self period, then a group's members' {@code afterSelf}; sample: the samples),
     * elided keys skipped.
     */
    private int compareFields(HistEntry x, HistEntry y, Set<SortKey> elided, Comparator<HistEntry> afterSelf) {
        int c = 0;
        for (Field f : sortList) {
            if (f.hpp() == null) {
                if (!elided.contains(f.key())) {
                    c = keyOrder(f.key(), x, y);
                }
            } else {
                switch (f.hpp()) {
                    case OVERHEAD_CHILDREN -> {
                        if (children) {
                            c = Long.compare(y.periodAcc, x.periodAcc);
                            if (c == 0 && graphOrder != null && x.thread == y.thread) {
                                int d = maxDepth(y) - maxDepth(x);
                                c = graphOrder == CallchainParams.Order.CALLER ? d : -d;
                            }
                        }
                    }
                    case OVERHEAD, PERIOD -> {
                        c = Long.compare(y.period, x.period);
                        if (c == 0 && afterSelf != null) {
                            c = afterSelf.compare(x, y);
                        }
                    }
                    case SAMPLE -> c = Long.compare(y.samples, x.samples);
                    // __hpp__sort of the mode's period (jperf compares no group members' here)
                    default -> c = Long.compare(y.period(f.hpp()), x.period(f.hpp()));
                }
            }
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** perf's se_sort of key {@code k}, as seen in the output (x before y when negative). */
    private int keyOrder(SortKey k, HistEntry x, HistEntry y) {
        return switch (k) {
            case COMM -> x.comm.compareTo(y.comm);
            // sort_dso has no se_sort: its se_cmp, first when positive
            case DSO -> Long.signum(-dsoCmpPerf(x, y));
            case SYM -> {
                if (x.symbol == null || y.symbol == null) {
                    yield x.symbol == null ? (y.symbol == null ? 0 : 1) : -1;
                }
                yield x.symbol.name().compareTo(y.symbol.name());
            }
            case PID, TID -> Integer.compare(x.thread.tid(), y.thread.tid());
            case CPU -> Integer.compare(x.cpu, y.cpu);
            // keys without se_sort: perf's output order is their cmp's, first when positive
            case DSO_FROM -> Long.signum(-dsoCmp(x.from.dso(), y.from.dso()));
            case DSO_TO -> Long.signum(-dsoCmp(x.to.dso(), y.to.dso()));
            case SYMBOL_FROM -> Long.signum(-branchSymCmp(x.from, y.from));
            case SYMBOL_TO -> Long.signum(-branchSymCmp(x.to, y.to));
            case CYCLES -> Integer.compare(y.cycles, x.cycles);
            case IPC_LBR -> Long.signum(-symCmpPerf(x, y, dsoDimension));
            case SRCLINE_FROM -> x == y ? 0 : srclineFrom(x).compareTo(srclineFrom(y));
            case SRCLINE_TO -> x == y ? 0 : srclineTo(x).compareTo(srclineTo(y));
            case SRCLINE -> x == y ? 0 : x.srcline().compareTo(y.srcline());
            case SRCFILE -> x == y ? 0 : x.srcfile().compareTo(y.srcfile());
        };
    }

    /** Entries by four key words, on a {@link HashIndex}: no object per lookup. */
    private static final class EntryMap {
        private final HashIndex index = new HashIndex(64);
        private long[] keys = new long[4 * 64];
        private HistEntry[] values = new HistEntry[64];
        private int[] stamps = new int[64];
        private int[] hashes = new int[64];

        /** The entry number of the key, or -(free slot) - 1 (for {@link #insert}). */
        int find(long k0, long k1, long k2, long k3) {
            int slot = index.first(hash(k0, k1, k2, k3));
            for (int i; (i = index.entry(slot)) >= 0; slot = index.next(slot)) {
                int a = 4 * i;
                if (keys[a] == k0 && keys[a + 1] == k1 && keys[a + 2] == k2 && keys[a + 3] == k3) {
                    return i;
                }
            }
            return -slot - 1;
        }

        private static int hash(long k0, long k1, long k2, long k3) {
            long h = (k0 * 0x9E3779B97F4A7C15L) ^ (k1 * 0xC2B2AE3D27D4EB4FL) ^ (k2 * 0x165667B19E3779F9L) ^ k3;
            return (int) (h ^ (h >>> 32));
        }

        HistEntry value(int i) {
            return values[i];
        }

        /** The tree version the entry was found at (search mode). */
        int stamp(int i) {
            return stamps[i];
        }

        void set(int i, HistEntry e, int version) {
            values[i] = e;
            stamps[i] = version;
        }

        /** Adds the key in the free {@code slot} {@link #find} gave; returns its entry number. */
        int insert(int slot, long k0, long k1, long k2, long k3, HistEntry e) {
            int i = index.size();
            if (i == values.length) {
                keys = Arrays.copyOf(keys, 8 * i);
                values = Arrays.copyOf(values, 2 * i);
                stamps = Arrays.copyOf(stamps, 2 * i);
                hashes = Arrays.copyOf(hashes, 2 * i);
            }
            int a = 4 * i;
            keys[a] = k0;
            keys[a + 1] = k1;
            keys[a + 2] = k2;
            keys[a + 3] = k3;
            values[i] = e;
            hashes[i] = hash(k0, k1, k2, k3);
            return index.put(slot, hashes);
        }
    }
}
