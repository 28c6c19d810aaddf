package dev.jperf.report.session;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.ReadProgress;
import dev.jperf.format.RecordStream;
import dev.jperf.format.feature.Feature;
import dev.jperf.format.io.ByteSource;
import dev.jperf.format.record.AuxtraceRecord;
import dev.jperf.format.record.BranchStack;
import dev.jperf.format.record.BuildIdRecord;
import dev.jperf.format.record.CommRecord;
import dev.jperf.format.record.ExitRecord;
import dev.jperf.format.record.FinishedRoundRecord;
import dev.jperf.format.record.ForkRecord;
import dev.jperf.format.record.KsymbolRecord;
import dev.jperf.format.record.LostRecord;
import dev.jperf.format.record.LostSamplesRecord;
import dev.jperf.format.record.Mmap2Record;
import dev.jperf.format.record.MmapRecord;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.SampleRecord;
import dev.jperf.format.record.UserStack;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.report.symbol.BpfProgSymbols;
import dev.jperf.report.symbol.Dso;
import dev.jperf.report.symbol.SymbolResolver;
import dev.jperf.format.record.RecordType;
import dev.jperf.format.record.SampleView;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.Set;

/**
 * Reads a perf.data file the way perf report does: build-ids from the header, records in time
 * order (FINISHED_ROUND), thread and map state from the side-band records, and every sample
 * resolved (thread, comm, DSO, symbol, callchain) and handed to a {@link SampleConsumer}.
 */
public final class Session {
    private static final int MAX_STACK = Machine.PERF_MAX_STACK_DEPTH;
    /** Batches in flight between the reading and the resolving thread. */
    private static final int BATCHES = 3;
    /** struct perf_branch_entry: cycles:16 after mispred, predicted, in_tx, abort. */
    private static final int BRANCH_CYCLES_SHIFT = 4;

    /**
     * What to resolve and which samples to drop or mark filtered.
     *
     * @param callchains resolve callchains (off for -g none --no-children: faster)
     * @param branchStacks resolve each sample's branch stack (perf's branch mode)
     * @param evswitch --switch-on/--switch-off, applied where perf report applies them (after
     *     --time, before the other filters), or null
     */
    public record Options(boolean callchains, SampleFilter filter, boolean branchStacks, int maxStack,
            boolean hideUnresolved, EvSwitch evswitch) {
        /** Without branch stacks. */
        public Options(boolean callchains, SampleFilter filter) {
            this(callchains, filter, false);
        }

        /** perf's default --max-stack (PERF_MAX_STACK_DEPTH). */
        public Options(boolean callchains, SampleFilter filter, boolean branchStacks) {
            this(callchains, filter, branchStacks, MAX_STACK, false, null);
        }

        /** perf's --max-stack: the callchain entries a walk keeps (perf's loop stops at it). */
        public Options withMaxStack(int maxStack) {
            return new Options(callchains, filter, branchStacks, maxStack, hideUnresolved, evswitch);
        }

        /** perf report's evswitch, for {@link #scan}. */
        public Options withEvSwitch(EvSwitch evswitch) {
            return new Options(callchains, filter, branchStacks, maxStack, hideUnresolved, evswitch);
        }

        /**
         * perf's -U (symbol_conf.hide_unresolved), for {@link #scan}: a sample without a symbol is
         * dropped before it counts anywhere, a callchain frame without one is left out (it still
         * counts toward --max-stack, as in perf's walk).
         */
        public Options withHideUnresolved(boolean hideUnresolved) {
            return new Options(callchains, filter, branchStacks, maxStack, hideUnresolved, evswitch);
        }
    }

    private final PerfDataFile file;
    private final Machine machine;
    private final Options options;
    /** --max-stack, no more than a record can hold (a negative one keeps nothing, as perf's loop). */
    private final int maxStack;
    private long totalLostSamples;
    private volatile long lostRecords;
    private volatile long lostEvents;
    private long auxtraceBytes;
    private boolean calleeCut;
    private PerfThread lastThread;
    private long lastPidTid;
    private final ChainCache chains = new ChainCache();
    private final long[] raw = new long[ChainCache.MAX_NR];
    /** A delivered sample's frames before they are copied at their length (session thread only). */
    private Frame[] chainScratch = new Frame[2 * Machine.MAX_CHAIN_NR];
    /** The array {@link #withUnwound} left its chain in: the one given, or a larger copy when inlined frames need room. */
    private Frame[] unwoundChain;
    /** A DWARF sample's registers and stack copy, located in place. */
    private final UserStack userStack = new UserStack();
    /** {@link Frame#hashOf} of the frames the last {@link #resolveCallchain} returned (made as they were). */
    private int resolvedHash;
    private volatile boolean fileOrder;
    /** perf report --tasks: COMM, FORK and EXIT records alone (and the mmaps with --mmaps), no samples. */
    private boolean sideBandOnly;
    private boolean withMmaps;
    /** The reader copies callchains into the batches (scan with callchains: see {@link Batch#raw}). */
    private boolean copyChains;
    /** {@link #live}. */
    private boolean live;

    public Session(PerfDataFile file, SymbolResolver resolver, Options options) {
        this.file = file;
        this.machine = new Machine(resolver);
        machine.setBpfProgSymbols(() -> BpfProgSymbols.of(file.features().bpfPrograms()));
        this.options = options;
        this.maxStack = Math.max(0, Math.min(options.maxStack(), Machine.MAX_CHAIN_NR));
        readBuildIds();
        Dso kernel = resolver.existing(SymbolResolver.KERNEL_NAME);
        resolver.prefetchKallsyms(kernel == null ? null : kernel.buildId());
        resolver.prefetchUserSymbols();
    }

    public Machine machine() {
        return machine;
    }

    public PerfDataFile file() {
        return file;
    }

    /** Bytes of AUX area trace (PERF_RECORD_AUXTRACE payloads) read: jperf decodes none of them. */
    public long auxtraceBytes() {
        return auxtraceBytes;
    }

    /** PERF_RECORD_LOST records delivered so far (perf's nr_events[PERF_RECORD_LOST]; read by a live view). */
    public long lostRecords() {
        return lostRecords;
    }

    /** Sum of their lost counts (perf top's lost_total). */
    public long lostEvents() {
        return lostEvents;
    }

    /** Sum of PERF_RECORD_LOST_SAMPLES counts (perf's "Total Lost Samples"). */
    public long totalLostSamples() {
        return totalLostSamples;
    }

    /**
     * perf's ordered_events = false (script --show-round-events): {@link #run} delivers every
     * record in file order, FINISHED_ROUND included, as side-band. Set before running.
     */
    public void deliverInFileOrder() {
        fileOrder = true;
    }

    /**
     * A live stream (jperf top's): each round's samples are delivered when the round ends rather
     * than in full batches. Set before running.
     */
    public void live() {
        live = true;
    }

    /**
     * perf report --tasks (tasks_setup): applies the COMM, FORK and EXIT records, and the mmaps when
     * {@code mmaps}, and nothing else: the threads and maps {@link #machine} then has are perf's.
     */
    public void runTasks(boolean mmaps) {
        sideBandOnly = true;
        withMmaps = mmaps;
        pipeline(b -> deliver(b, null, null, null));
    }

    /** Reads every record and hands each sample, resolved and fully decoded, to {@code consumer}. */
    public void run(SampleConsumer consumer) {
        pipeline(b -> deliver(b, consumer, null, null));
    }

    /**
     * Reads every record and hands each sample, resolved, to {@code sink}: the fast path (report),
     * where samples are never decoded into objects. With {@code calleeCut}, a chain of more than
     * 127 addresses keeps its innermost ones (perf's callee-order walk) instead of its outermost.
     */
    public void scan(SampleSink sink, boolean calleeCut) {
        CurrentSample current = new CurrentSample();
        this.calleeCut = calleeCut;
        this.copyChains = options.callchains();
        pipeline(b -> deliver(b, null, sink, current));
    }

    /** Thrown in the reading thread when the resolving one gave up. */
    private static final class Cancelled extends RuntimeException {
        Cancelled() {
            super(null, null, false, false);
        }
    }

    /**
     * Two threads: this one resolves and delivers, a reader decodes and orders (perf's ordered
     * events) and passes batches of records in delivery order through a small ring of batches.
     * Samples travel as flat fields (no object each), so those waiting in the ordered-events queue
     * cost no garbage; a consumer that wants the full record gets it decoded on delivery.
     */
    private void pipeline(java.util.function.Consumer<Batch> handle) {
        ArrayBlockingQueue<Batch> full = new ArrayBlockingQueue<>(BATCHES + 1);
        ArrayBlockingQueue<Batch> free = new ArrayBlockingQueue<>(BATCHES);
        for (int i = 0; i < BATCHES; i++) {
            free.add(new Batch(Batch.CAPACITY));
        }
        Thread reader = new Thread(() -> {
            try (RecordStream rs = file.records()) {
                ChunkRefs refs = new ChunkRefs(rs);
                OrderedEvents oe = new OrderedEvents(b -> {
                    try {
                        full.put(b);
                        if (b.last) {
                            return null;
                        }
                        Batch next = free.take();
                        refs.release(next);
                        next.clear();
                        return next;
                    } catch (InterruptedException e) {
                        throw new Cancelled();
                    }
                }, free.poll());
                if (copyChains) {
                    oe.copyChains();
                }
                if (live) {
                    oe.live();
                }
                read(rs, refs, oe);
            } catch (Cancelled c) {
                // the consumer failed and said so
            } catch (Throwable t) {
                Batch e = new Batch(0);
                e.error = t;
                e.last = true;
                full.offer(e);
            }
        }, "jperf-reader");
        reader.setDaemon(true);
        reader.start();
        boolean done = false;
        try {
            while (!done) {
                Batch b = full.take();
                if (b.error instanceof RuntimeException e) {
                    throw e;
                } else if (b.error instanceof Error e) {
                    throw e;
                } else if (b.error != null) {
                    throw new IllegalStateException(b.error);
                }
                handle.accept(b);
                done = b.last;
                // the reader clears it: it first releases the chunks its samples referred to
                free.offer(b);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        } finally {
            if (!done) {
                reader.interrupt();
            }
        }
    }

    /** The reading thread: records in file order into the ordered-events queue. */
    private void read(RecordStream rs, ChunkRefs refs, OrderedEvents oe) {
        ReadProgress progress = file.progress();
        long total = file.dataSection().size();
        try {
            long n = 0;
            SampleView v = new SampleView();
            // set before running: read once, not per record
            boolean inFileOrder = fileOrder;
            int type;
            while ((type = rs.advance(v)) >= 0) {
                boolean sample = type == RecordType.PERF_RECORD_SAMPLE;
                if ((++n & 0xfff) == 0) {
                    progress.update(sample ? v.offset() : rs.current().offset(), total);
                }
                if (sample) {
                    refs.hold(v.source());
                    if (inFileOrder) {
                        oe.immediateSample(v);
                    } else {
                        oe.queueSample(v);
                    }
                } else if (inFileOrder && (type < 64 || type == RecordType.PERF_RECORD_FINISHED_ROUND)) {
                    oe.immediate(rs.current());
                } else {
                    route(rs.current(), oe);
                }
            }
            oe.finish();
        } finally {
            progress.done();
        }
    }

    private void route(PerfRecord r, OrderedEvents oe) {
        if (r instanceof AuxtraceRecord a) {
            // the reader's count, read once the last batch was taken (the queue orders the two)
            auxtraceBytes += a.auxSize();
        } else if (r instanceof FinishedRoundRecord) {
            oe.finishedRound();
        } else if (r instanceof BuildIdRecord) {
            oe.immediate(r);
        } else if (r.type() < 64) {
            oe.queue(r, timeOf(r));
        }
    }

    /** The resolving thread: one batch, in order. */
    private void deliver(Batch b, SampleConsumer consumer, SampleSink sink, CurrentSample current) {
        for (int i = 0; i < b.n; i++) {
            Object ref = b.o[2 * i];
            if (ref instanceof ByteSource && sideBandOnly) {
                continue;
            }
            if (ref instanceof ByteSource src && sink != null) {
                sample(b, i, src, sink, current);
            } else if (ref instanceof ByteSource src) {
                int at = i * Batch.L;
                sample((SampleRecord) file.decode(src, b.d[at + Batch.POSITION], b.d[at + Batch.OFFSET]), src,
                        b.d[at + Batch.POSITION], b.d[at + Batch.CALLCHAIN_AT], consumer);
            } else if (ref instanceof BuildIdRecord r) {
                machine.addBuildId(r.filename(), r.buildId());
            } else {
                deliver((PerfRecord) ref, consumer);
            }
        }
    }

    /**
     * perf's dso id inode: with a build-id in the record, the bytes the union puts there (the
     * build-id's 5th to 12th).
     */
    private static long inode(Mmap2Record m) {
        byte[] id = m.buildId();
        if (id == null) {
            return m.ino();
        }
        long ino = 0;
        for (int i = 11; i >= 4; i--) {
            ino = (ino << 8) | (i < id.length ? id[i] & 0xff : 0);
        }
        return ino;
    }

    private static long timeOf(PerfRecord r) {
        if (r instanceof MmapRecord m) {
            return m.sampleId().time();
        } else if (r instanceof Mmap2Record m) {
            return m.sampleId().time();
        } else if (r instanceof CommRecord c) {
            return c.sampleId().time();
        } else if (r instanceof ForkRecord f) {
            return f.sampleId().time();
        } else if (r instanceof ExitRecord e) {
            return e.sampleId().time();
        } else if (r instanceof KsymbolRecord k) {
            return k.sampleId().time();
        } else if (r instanceof LostSamplesRecord l) {
            return l.sampleId().time();
        }
        return r.sampleId().time();
    }

    private void deliver(PerfRecord r, SampleConsumer consumer) {
        lastThread = null;
        if (sideBandOnly && !withMmaps && (r instanceof MmapRecord || r instanceof Mmap2Record)) {
            // perf report --tasks without --mmaps: no mmap handler, no thread made by one
        } else if (r instanceof MmapRecord m) {
            // perf's machine__process_mmap_event: PROT_EXEC unless misc says data
            int prot = (m.misc() & PerfRecord.PERF_RECORD_MISC_MMAP_DATA) != 0 ? 0 : Machine.PROT_EXEC;
            machine.mmap(m.pid(), m.tid(), m.addr(), m.len(), m.pgoff(), m.filename(), prot, 0, 0, m.cpumode(), null);
        } else if (r instanceof Mmap2Record m) {
            machine.mmap(m.pid(), m.tid(), m.addr(), m.len(), m.pgoff(), m.filename(), m.prot(), m.flags(), inode(m),
                    m.cpumode(), m.buildId());
        } else if (r instanceof CommRecord c) {
            machine.comm(c.pid(), c.tid(), c.comm());
        } else if (r instanceof ForkRecord f) {
            machine.fork(f.pid(), f.ppid(), f.tid(), f.ptid(), f.misc());
        } else if (r instanceof KsymbolRecord k) {
            machine.ksymbol(k.addr(), k.len(), k.name(), k.unregister());
        } else if (r instanceof LostSamplesRecord l) {
            totalLostSamples += l.lost();
        } else if (r instanceof LostRecord l) {
            lostRecords++;
            lostEvents += l.lost();
        }
        if (consumer != null) {
            consumer.sideBand(r);
        }
    }

    private void sample(Batch b, int i, ByteSource src, SampleSink sink, CurrentSample c) {
        long[] d = b.d;
        int at = i * Batch.L;
        int cpu = (int) (d[at + Batch.CPU_MISC] >> 32);
        if (options.evswitch() != null && switchedOff(d[at + Batch.TIME], Batch.event(b.o, i))) {
            return;
        }
        if (options.filter().drops(cpu, d[at + Batch.TIME])) {
            return;
        }
        long pidTid = d[at + Batch.PID_TID];
        PerfThread thread = lastThread;
        if (thread == null || pidTid != lastPidTid) {
            thread = machine.findOrCreateThread((int) (pidTid >> 32), (int) pidTid);
            // consecutive samples of one thread are the rule; side-band records reset this
            lastThread = thread.pid() == (int) (pidTid >> 32) ? thread : null;
            lastPidTid = pidTid;
        }
        int misc = (int) (d[at + Batch.CPU_MISC] & 0xffff);
        c.event = Batch.event(b.o, i);
        c.ip = d[at + Batch.IP];
        c.pid = (int) (pidTid >> 32);
        c.tid = (int) pidTid;
        c.time = d[at + Batch.TIME];
        c.cpu = cpu;
        c.period = d[at + Batch.PERIOD];
        c.misc = misc;
        c.offset = d[at + Batch.OFFSET];
        c.thread = thread;
        int nr = (int) d[at + Batch.CALLCHAIN_NR];
        c.chainLength = -1;
        c.chainHashed = false;
        c.chainId = -1;
        if (options.callchains() && UserStack.sampled(c.event.attr())) {
            // a raw chain says nothing of the user stack: no chain cache
            c.frame = machine.resolve(thread, misc & PerfRecord.PERF_RECORD_MISC_CPUMODE_MASK, c.ip);
            c.chainLength = withUnwound(thread, src, d[at + Batch.POSITION], d[at + Batch.CALLCHAIN_AT], nr,
                    c.event.attr(), c.chain);
            c.chain = unwoundChain;
        } else if (options.callchains() && nr >= 0 && nr <= ChainCache.MAX_NR && !options.hideUnresolved()) {
            // (-U compacts chains: the cache shares frames by their index in the raw chain)
            resolveCached(thread, misc & PerfRecord.PERF_RECORD_MISC_CPUMODE_MASK, b, d[at + Batch.RAW_AT],
                    d[at + Batch.RAW_HASH], src, d[at + Batch.CALLCHAIN_AT], nr, c);
        } else if (options.callchains() && nr >= 0) {
            c.frame = machine.resolve(thread, misc & PerfRecord.PERF_RECORD_MISC_CPUMODE_MASK, c.ip);
            c.chainLength = resolveCallchain(thread, src, d[at + Batch.CALLCHAIN_AT], null, nr, c.chain, -1, nr);
            if (calleeCut && nr > maxStack) {
                int cut = machine.calleeCut(thread, src, d[at + Batch.CALLCHAIN_AT], null, nr, c.chain, maxStack);
                if (cut >= 0) {
                    c.chainLength = cut;
                }
            }
        } else {
            c.frame = machine.resolve(thread, misc & PerfRecord.PERF_RECORD_MISC_CPUMODE_MASK, c.ip);
        }
        if (options.hideUnresolved()) {
            if (c.frame.symbol() == null) {
                return;
            }
            c.chainLength = resolvedOnly(c.chain, c.chainLength);
        }
        c.comm = thread.comm();
        c.filtered = options.filter().excludes(thread, c.comm, c.frame);
        if (options.branchStacks()) {
            SampleRecord r = (SampleRecord) file.decode(src, d[at + Batch.POSITION], d[at + Batch.OFFSET]);
            branches(thread, r.branchStack(), c);
        }
        sink.sample(c);
    }

    /** -U: the first {@code n} frames of {@code chain} that have a symbol, moved to its start; their count. */
    private static int resolvedOnly(Frame[] chain, int n) {
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (chain[i].symbol() != null) {
                chain[k++] = chain[i];
            }
        }
        return n < 0 ? n : k;
    }

    /** perf's sample__resolve_bstack: each entry's ends resolved in whichever address space maps them. */
    private void branches(PerfThread thread, BranchStack br, CurrentSample c) {
        if (br == null) {
            c.branchCount = -1;
            return;
        }
        int n = br.nr();
        if (c.branchFrom.length < n) {
            c.branchFrom = new Frame[n];
            c.branchTo = new Frame[n];
            c.branchCycles = new int[n];
        }
        long[] from = br.from();
        long[] to = br.to();
        long[] flags = br.flags();
        for (int i = 0; i < n; i++) {
            c.branchTo[i] = machine.resolveAnyMode(thread, to[i]);
            c.branchFrom[i] = machine.resolveAnyMode(thread, from[i]);
            c.branchCycles[i] = (int) (flags[i] >>> BRANCH_CYCLES_SHIFT) & 0xffff;
        }
        c.branchCount = n;
    }

    /**
     * The sample's frame and callchain from the cache of raw chains, resolved and cached on a miss.
     * The chain's addresses are {@code b.raw} from {@code rawAt} when the reader copied them there
     * (with their {@link ChainCache#rawHash}, {@code rawHashAt}), else read from {@code src}.
     */
    private void resolveCached(PerfThread thread, int mode, Batch b, long rawAt, long rawHashAt, ByteSource src,
            long chainAt, int nr, CurrentSample c) {
        long[] ips = raw;
        int off = 0;
        long rawHash;
        if (rawAt >= 0) {
            ips = b.raw;
            off = (int) rawAt;
            rawHash = rawHashAt;
        } else {
            src.u64s(chainAt, raw, 0, nr);
            rawHash = ChainCache.rawHash(raw, 0, nr);
        }
        int hit = chains.find(thread, mode, c.ip, ips, off, nr, rawHash, machine.kernelMaps());
        if (hit >= 0) {
            c.frame = chains.frame(hit);
            c.chainLength = chains.chain(hit, c.chain);
            c.chainHash = chains.chainHash(hit);
            c.chainHashed = true;
            c.chainId = chains.serial(hit);
            return;
        }
        if (ips != raw) {
            System.arraycopy(ips, off, raw, 0, nr);
        }
        c.frame = machine.resolve(thread, mode, c.ip);
        int last = chains.last(thread, machine.kernelMaps());
        c.chainLength = resolveCallchain(thread, null, 0, raw, nr, c.chain, last, last < 0 ? nr : shared(last, raw, nr));
        c.chainHash = resolvedHash;
        c.chainHashed = true;
        if (calleeCut && nr > maxStack) {
            int cut = machine.calleeCut(thread, null, 0, raw, nr, c.chain, maxStack);
            if (cut >= 0) {
                c.chainLength = cut;
                c.chainHashed = false;
            }
        }
        chains.put(thread, mode, c.ip, raw, 0, nr, machine.kernelMaps(), c.frame, c.chain, c.chainLength,
                c.callchainHash());
        c.chainId = chains.serial(chains.lastPut());
    }

    /**
     * perf's thread__resolve_callchain for an event sampling user registers and stack (record
     * --call-graph dwarf), in the session's caller-first order: the user frames unwound
     * (thread__resolve_callchain_unwind), outermost first, then the frames of the sample's
     * callchain (its kernel part: the kernel is told to exclude the user one). The sample is at
     * {@code position} in {@code src}, its {@code nr} callchain entries at {@code chainAt} (-1: none,
     * and nothing to unwind from). {@code out} has room for twice {@value #MAX_STACK}.
     */
    private int withUnwound(PerfThread thread, ByteSource src, long position, long chainAt, int nr,
            PerfEventAttr attr, Frame[] out) {
        unwoundChain = out;
        if (nr < 0) {
            return 0;
        }
        int k = resolveCallchain(thread, src, chainAt, null, nr, out, -1, nr);
        if (calleeCut && nr > maxStack) {
            // the kernel part cut as the other chains are; the unwound user part is its own walk
            int cut = machine.calleeCut(thread, src, chainAt, null, nr, out, maxStack);
            if (cut >= 0) {
                k = cut;
            }
        }
        long end = position + src.u16(position + 6);
        int u = userStack.locate(src, chainAt + 8L * nr, end, attr) ? machine.unwindUser(thread, src, userStack, maxStack)
                : 0;
        if (k + u > out.length) {
            out = Arrays.copyOf(out, k + u);
        }
        unwoundChain = out;
        if (u > 0) {
            Frame[] userFrames = machine.unwound();
            System.arraycopy(out, 0, out, u, k);
            for (int i = 0; i < u; i++) {
                out[i] = userFrames[u - 1 - i];
            }
        }
        return k + u;
    }

    /** perf report's order: a sample --time drops never reaches the switch, which then decides. */
    private boolean switchedOff(long time, dev.jperf.format.header.EventDesc event) {
        return !options.filter().dropsTime(time) && options.evswitch().discard(event);
    }

    /** A sample decoded in full; its callchain's entries are u64s at {@code chainAt} in {@code src}. */
    private void sample(SampleRecord s, ByteSource src, long position, long chainAt, SampleConsumer consumer) {
        if (options.evswitch() != null && switchedOff(s.time(), s.event())) {
            return;
        }
        if (options.filter().drops(s.cpu(), s.time())) {
            return;
        }
        PerfThread thread = machine.findOrCreateThread(s.pid(), s.tid());
        int cpumode = s.cpumode();
        Frame frame = machine.resolve(thread, cpumode, s.ip());
        Frame[] chain = null;
        if (options.callchains() && s.hasCallchain()) {
            // the record's bytes into the reused buffer: callchain() would copy (garbage per sample)
            int nr = s.callchainLength();
            int n;
            if (UserStack.sampled(s.event().attr())) {
                n = withUnwound(thread, src, position, chainAt, nr, s.event().attr(), chainScratch);
                chainScratch = unwoundChain;
            } else {
                long[] ips = nr <= raw.length ? raw : new long[nr];
                src.u64s(chainAt, ips, 0, nr);
                n = resolveCallchain(thread, null, 0, ips, nr, chainScratch, -1, nr);
            }
            chain = Arrays.copyOf(chainScratch, n);
        }
        String comm = thread.comm();
        boolean filtered = options.filter().excludes(thread, comm, frame);
        consumer.sample(new ResolvedSample(s, s.event(), thread, comm, frame, chain, filtered));
    }

    /**
     * Where the addresses {@code raw[0..nr)} shares with the chain cache's entry {@code last} (of
     * the same thread, resolved against the same maps) begin, when their frames are that entry's:
     * the same outermost addresses, under the same cpumode (the nearest context marker below them,
     * in both chains), in chains no longer than perf keeps whole; else {@code nr} (none shared).
     */
    private int shared(int last, long[] raw, int nr) {
        int lastNr = chains.rawLength(last);
        if (nr > maxStack || lastNr > maxStack) {
            return nr;
        }
        int common = chains.commonSuffix(last, raw, nr);
        int from = nr - common;
        long below = 0;
        for (int k = from - 1; k >= 0; k--) {
            if (SampleRecord.isContextMarker(raw[k])) {
                below = raw[k];
                break;
            }
        }
        long lastBelow = 0;
        for (int k = lastNr - common - 1; k >= 0; k--) {
            long m = chains.raw(last, k);
            if (SampleRecord.isContextMarker(m)) {
                lastBelow = m;
                break;
            }
        }
        int frames = 0;
        for (int k = from; k < nr; k++) {
            if (!SampleRecord.isContextMarker(raw[k])) {
                frames++;
            }
        }
        // the last chain resolved whole (a guest marker empties one): its first frames are these
        return below == lastBelow && frames > 0 && chains.chainLength(last) >= frames ? from : nr;
    }

    /**
     * perf report's thread__resolve_callchain_sample with its default caller order: entries from
     * the outermost caller in, at most 127 addresses (so a deep chain loses its innermost frames,
     * as in perf), each context marker applying to the entries before it. The {@code nr} entries
     * are {@code ips}, or u64s at {@code at} in {@code src}; resolved frames go to {@code out}
     * (room for min(nr, 127)), their count is returned. The entries from {@code shared} on are
     * those of the chain cache's entry {@code last} ({@link #shared}): its frames, not resolved again.
     * Their hash goes to {@link #resolvedHash} (a second pass over the frames cost 2 % of this thread).
     */
    private int resolveCallchain(PerfThread thread, ByteSource src, long at, long[] ips, int nr, Frame[] out,
            int last, int shared) {
        int n = 0;
        int h = 0;
        int cpumode = PerfRecord.PERF_RECORD_MISC_USER;
        for (int j = nr; j >= 0 && n < maxStack; j--) {
            long ip = j == nr ? SampleRecord.PERF_CONTEXT_MAX : ips != null ? ips[j] : src.u64(at + 8L * j);
            if (SampleRecord.isContextMarker(ip)) {
                // find_prev_cpumode: the marker before this point rules the entries that follow
                for (int k = j - 1; k >= 0; k--) {
                    long m = ips != null ? ips[k] : src.u64(at + 8L * k);
                    if (SampleRecord.isContextMarker(m)) {
                        cpumode = SampleRecord.cpumodeAfter(m);
                        if (cpumode < 0) {
                            resolvedHash = 0;
                            return 0;
                        }
                        break;
                    }
                }
                continue;
            }
            Frame f = j >= shared ? chains.chainFrame(last, n) : machine.resolve(thread, cpumode, ip);
            out[n++] = f;
            h = Frame.hashOf(h, f);
        }
        resolvedHash = h;
        return n;
    }

    private void readBuildIds() {
        ByteSource b = file.featureBody(Feature.BUILD_ID.bit()).orElse(null);
        if (b == null) {
            return;
        }
        long p = 0;
        long end = b.size();
        while (p + 36 <= end) {
            int misc = b.u16(p + 4);
            int size = b.u16(p + 6);
            if (size < 36 || p + size > end) {
                break;
            }
            int idLen = (misc & PerfRecord.PERF_RECORD_MISC_BUILD_ID_SIZE) != 0 ? Math.min(b.u8(p + 32), 20) : 20;
            byte[] id = b.bytes(p + 12, idLen);
            String name = b.cString(p + 36, size - 36);
            if (!name.isEmpty()) {
                machine.addBuildId(name, id);
            }
            p += size;
        }
    }
}
