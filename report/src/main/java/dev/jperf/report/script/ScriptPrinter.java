package dev.jperf.report.script;

import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.record.BpfEventRecord;
import dev.jperf.format.record.BranchStack;
import dev.jperf.format.record.CgroupRecord;
import dev.jperf.format.record.CommRecord;
import dev.jperf.format.record.ExitRecord;
import dev.jperf.format.record.FinishedRoundRecord;
import dev.jperf.format.record.ForkRecord;
import dev.jperf.format.record.KsymbolRecord;
import dev.jperf.format.record.LostRecord;
import dev.jperf.format.record.Mmap2Record;
import dev.jperf.format.record.MmapRecord;
import dev.jperf.format.record.NamespacesRecord;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.RecordType;
import dev.jperf.format.record.SampleRecord;
import dev.jperf.format.record.SwitchRecord;
import dev.jperf.report.script.OutputFields.Field;
import dev.jperf.report.session.Frame;
import dev.jperf.report.session.Machine;
import dev.jperf.report.session.ResolvedSample;
import dev.jperf.report.session.SampleConsumer;
import dev.jperf.report.symbol.Dso;
import dev.jperf.report.symbol.SourceLines;
import dev.jperf.report.symbol.Symbol;
import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * perf script's text: one line per sample (or a header line and one line per callchain frame,
 * then an empty line), and the side-band records chosen with --show-*-events, laid out exactly as
 * perf 6.1 prints them (perf_sample__fprintf_start, sample__fprintf_sym, perf_event__fprintf).
 */
final class ScriptPrinter implements SampleConsumer {
    private static final int MAP_SHARED = 1;

    private final LineWriter w;
    private final Machine machine;
    private final List<EventDesc> events;
    private final OutputFields[] fields;
    private final boolean[] callchain;
    private final int nameWidth;
    private final Script.Options options;
    /** --stop-bt's symbols, or null. */
    private final java.util.Set<String> stopBt;
    private final PerfRegs regs;
    // a frame is shared by every sample at that address: render it once
    private final Map<Frame, byte[]> sampleIpText = new IdentityHashMap<>();
    private final Map<Frame, byte[]> chainText = new IdentityHashMap<>();

    ScriptPrinter(LineWriter w, Machine machine, List<EventDesc> events, OutputFields requested, boolean useCallchain,
            Script.Options options, String arch) {
        this.w = w;
        this.regs = new PerfRegs(arch);
        this.machine = machine;
        this.events = events;
        this.options = options;
        this.stopBt = options.stopBt().isEmpty() ? null : options.stopBt();
        this.fields = requested.perEvent(events);
        this.callchain = new boolean[events.size()];
        int width = 0;
        for (EventDesc e : events) {
            callchain[e.index()] = useCallchain && (e.attr().sampleType() & PerfEventAttr.PERF_SAMPLE_CALLCHAIN) != 0;
            width = Math.max(width, LineWriter.utf8Length(e.name()));
        }
        this.nameWidth = width;
    }

    /** Writes out what is buffered. */
    void flush() {
        w.flush();
    }

    /** The fields of each event, by index. */
    OutputFields[] fields() {
        return fields;
    }

    @Override
    public void sample(ResolvedSample rs) {
        sample(rs, null);
    }

    void sample(ScriptSample ss) {
        sample(ss.sample(), ss);
    }

    /** process_event's order: start, period, event, addr, ip (or callchain), iregs, uregs, brstack. */
    private void sample(ResolvedSample rs, ScriptSample extra) {
        SampleRecord s = rs.record();
        EventDesc e = rs.event();
        OutputFields f = fields[e.index()];
        boolean chain = callchain[e.index()] && rs.callchain() != null;
        prefix(e.index(), f, rs.comm(), s.pid(), s.tid(), s.cpu());
        time(f, s.time());
        if (f.has(Field.PERIOD)) {
            w.decRight(s.period(), 10).ch(' ');
        }
        if (f.has(Field.EVNAME)) {
            w.strRight(e.name(), nameWidth).ch(':').ch(' ');
        }
        if (f.has(Field.ADDR)) {
            addr(s.addr(), extra == null ? null : extra.addr(), f);
        }
        if (f.has(Field.IP)) {
            if (chain) {
                w.ch('\n');
                // the session gives perf report's caller order; perf script prints callee first
                Frame[] cc = rs.callchain();
                for (int i = cc.length - 1; i >= 0; i--) {
                    Frame fr = cc[i];
                    if (fr.map() == null) {
                        unmapped(fr.ip(), f, '\t');
                        w.ch('\n');
                        continue;
                    }
                    byte[] b = chainText.get(fr);
                    if (b == null) {
                        b = render(fr, chainIp(fr), f, "\t", "\n");
                        chainText.put(fr, b);
                    }
                    w.bytes(b);
                    // perf's --stop-bt: the frame printed, then no more
                    if (stopBt != null && fr.symbol() != null && stopBt.contains(fr.symbol().name())) {
                        break;
                    }
                }
            } else {
                Frame fr = rs.frame();
                if (fr.map() == null) {
                    unmapped(fr.ip(), f, ' ');
                } else {
                    byte[] b = sampleIpText.get(fr);
                    if (b == null) {
                        b = render(fr, fr.ip(), f, " ", "");
                        sampleIpText.put(fr, b);
                    }
                    w.bytes(b);
                }
            }
        }
        if (f.has(Field.IREGS)) {
            regs.print(w, s.regsIntr());
        }
        if (f.has(Field.UREGS)) {
            regs.print(w, s.regsUser());
        }
        if (f.has(Field.BRSTACK)) {
            brstack(s.branchStack(), extra, f);
        } else if (f.has(Field.BRSTACKSYM)) {
            brstacksym(s.branchStack(), extra, f);
        }
        w.ch('\n');
    }

    /**
     * perf_sample__fprintf_addr: {@code %16lx}, then for a page fault's data address its symbol and
     * DSO as chosen ({@code resolved} is null for other events).
     */
    private void addr(long addr, Frame resolved, OutputFields f) {
        w.hexRight(addr, 16);
        if (resolved == null) {
            return;
        }
        if (f.has(Field.SYM)) {
            w.ch(' ');
            symbol(resolved, f.has(Field.SYMOFFSET));
        }
        if (f.has(Field.DSO)) {
            w.str(" (").str(dsoName(resolved)).ch(')');
        }
    }

    /** perf_sample__fprintf_brstack: {@code  0xfrom[(dso)]/0xto[(dso)]} and the flags, per entry. */
    private void brstack(BranchStack br, ScriptSample extra, OutputFields f) {
        if (br == null || br.nr() == 0) {
            return;
        }
        long[] from = br.from();
        long[] to = br.to();
        long[] flags = br.flags();
        boolean dso = f.has(Field.DSO) && extra != null && extra.branchFrom() != null;
        for (int i = 0; i < from.length; i++) {
            w.str(" 0x").hexRight(from[i], 0);
            if (dso) {
                w.ch('(').str(dsoName(extra.branchFrom()[i])).ch(')');
            }
            w.str("/0x").hexRight(to[i], 0);
            if (dso) {
                w.ch('(').str(dsoName(extra.branchTo()[i])).ch(')');
            }
            BranchFlags.print(w, flags[i]);
        }
    }

    /** perf_sample__fprintf_brstacksym: {@code sym+0xoff[(dso)]/sym+0xoff[(dso)]} and the flags, per entry. */
    private void brstacksym(BranchStack br, ScriptSample extra, OutputFields f) {
        if (br == null || br.nr() == 0 || extra == null || extra.branchFrom() == null) {
            return;
        }
        long[] flags = br.flags();
        for (int i = 0; i < flags.length; i++) {
            symbol(extra.branchFrom()[i], true);
            if (f.has(Field.DSO)) {
                w.ch('(').str(dsoName(extra.branchFrom()[i])).ch(')');
            }
            w.ch('/');
            symbol(extra.branchTo()[i], true);
            if (f.has(Field.DSO)) {
                w.ch('(').str(dsoName(extra.branchTo()[i])).ch(')');
            }
            BranchFlags.print(w, flags[i]);
        }
    }

    /** symbol__fprintf_symname(_offs): the name (with +0xoffset) or [unknown]. */
    private void symbol(Frame fr, boolean offset) {
        Symbol sym = fr.symbol();
        if (sym == null) {
            w.str("[unknown]");
            return;
        }
        w.str(sym.name());
        if (offset) {
            w.str("+0x").hexRight(symbolOffset(fr, sym), 0);
        }
    }

    /** map__fprintf_dsoname. */
    static String dsoName(Frame fr) {
        Dso d = fr.dso();
        return d == null ? "[unknown]" : d.longName();
    }

    /** __symbol__fprintf_symname_offs: addresses past the symbol's end are taken relative to the map. */
    static long symbolOffset(Frame fr, Symbol sym) {
        return Long.compareUnsigned(fr.addr(), sym.end()) < 0 || fr.map() == null ? fr.addr() - sym.start()
                : fr.addr() - fr.map().start() - sym.start();
    }

    /**
     * A frame outside every mapping (garbage frame-pointer walks make many): the session gives each
     * a new Frame, so it is written directly instead of cached.
     */
    private void unmapped(long ip, OutputFields f, char prefix) {
        w.ch(prefix).hexRight(ip, 16);
        if (f.has(Field.SYM)) {
            w.str(" [unknown]");
        }
        if (f.has(Field.DSO)) {
            w.str(" ([unknown])");
        }
    }

    /** perf prints a callchain frame of a user-space DSO as its offset in the DSO, kernel-space ones as is. */
    static long chainIp(Frame fr) {
        return fr.dso() != null && !fr.dso().isKernelSpace() ? fr.addr() : fr.ip();
    }

    /** {@code prefix %16lx [ sym[+0xoff]] [ (dso)] suffix} for one frame. */
    private static byte[] render(Frame fr, long ip, OutputFields f, String prefix, String suffix) {
        StringBuilder sb = new StringBuilder(64).append(prefix);
        String hex = Long.toHexString(ip);
        sb.append(" ".repeat(Math.max(0, 16 - hex.length()))).append(hex);
        if (f.has(Field.SYM)) {
            sb.append(' ');
            Symbol sym = fr.symbol();
            if (sym == null) {
                sb.append("[unknown]");
            } else {
                sb.append(sym.name());
                if (f.has(Field.SYMOFFSET)) {
                    sb.append("+0x").append(Long.toHexString(symbolOffset(fr, sym)));
                }
            }
        }
        boolean inlined = fr.symbol() != null && fr.symbol().inlined();
        if (f.has(Field.DSO) && !inlined) {
            sb.append(" (").append(dsoName(fr)).append(')');
        }
        if (f.has(Field.SRCLINE) && fr.srcline() != null) {
            // the callchain node's srcline: an inline record's, ??:0 included
            sb.append("\n  ").append(fr.srcline());
        } else if (f.has(Field.SRCLINE) && fr.dso() != null) {
            // map__fprintf_srcline: map__srcline without the symbol, nothing when it is ??:0
            String line = SourceLines.mapSrcline(fr.dso(), fr.addr(), null);
            if (!line.startsWith(SourceLines.UNKNOWN)) {
                sb.append("\n  ").append(line);
            }
        }
        if (inlined) {
            sb.append(" (inlined)");
        }
        return sb.append(suffix).toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The comm/pid/tid/cpu part of a sample line, reused while a CPU keeps running the same thread. */
    private static final class Prefix {
        int event = -1;
        String comm;
        int pid;
        int tid;
        byte[] bytes;
    }

    private Prefix[] prefixes = new Prefix[0];

    private void prefix(int event, OutputFields f, String comm, int pid, int tid, int cpu) {
        int slot = cpu + 1;
        if (slot < 0 || slot > 4096) {
            start(f, callchain[event] && f.has(Field.IP), comm, pid, tid, cpu);
            return;
        }
        if (slot >= prefixes.length) {
            prefixes = java.util.Arrays.copyOf(prefixes, slot + 1);
        }
        Prefix p = prefixes[slot];
        if (p == null) {
            p = prefixes[slot] = new Prefix();
        }
        if (p.event == event && p.comm == comm && p.pid == pid && p.tid == tid && p.bytes != null) {
            w.bytes(p.bytes);
            return;
        }
        long mark = w.mark();
        start(f, callchain[event] && f.has(Field.IP), comm, pid, tid, cpu);
        p.event = event;
        p.comm = comm;
        p.pid = pid;
        p.tid = tid;
        p.bytes = w.since(mark);
    }

    private long lastSecs = -1;
    private byte[] lastSecsText;
    /** --reltime's first time and --deltatime's previous one (perf's initial_time, previous_time; 0: none yet). */
    private long firstTime;
    private long previousTime;

    /**
     * {@code %12s: } of timestamp__scnprintf_usec ("secs.usecs"), or {@code %5lu.%09llu: } with --ns;
     * the seconds part is reused. With --reltime the time since the first line's, with --deltatime
     * since the line before's (0 on the first), as perf_sample__fprintf_start counts them.
     */
    private void time(OutputFields f, long time) {
        if (!f.has(Field.TIME)) {
            return;
        }
        long t = time;
        if (options.time() == Script.TimeBase.FIRST) {
            if (firstTime == 0) {
                firstTime = time;
            }
            t = time - firstTime;
        } else if (options.time() == Script.TimeBase.PREVIOUS) {
            t = previousTime == 0 ? 0 : time - previousTime;
            previousTime = time;
        }
        long secs = Long.divideUnsigned(t, 1_000_000_000L);
        long nsecs = Long.remainderUnsigned(t, 1_000_000_000L);
        if (options.nanoseconds()) {
            w.decRight(secs, 5).ch('.').decZero(nsecs, 9).ch(':').ch(' ');
            return;
        }
        if (secs != lastSecs || lastSecsText == null) {
            String text = Long.toUnsignedString(secs);
            lastSecsText = (" ".repeat(Math.max(0, 12 - text.length() - 7)) + text + ".").getBytes(StandardCharsets.US_ASCII);
            lastSecs = secs;
        }
        w.bytes(lastSecsText).decZero(nsecs / 1000, 6).ch(':').ch(' ');
    }

    /** perf_sample__fprintf_start: comm, pid/tid, cpu, time. */
    private void start(OutputFields f, boolean unpaddedComm, String comm, int pid, int tid, int cpu, long time) {
        start(f, unpaddedComm, comm, pid, tid, cpu);
        time(f, time);
    }

    private void start(OutputFields f, boolean unpaddedComm, String comm, int pid, int tid, int cpu) {
        if (f.has(Field.COMM)) {
            if (unpaddedComm) {
                w.str(comm);
            } else {
                w.strRight(comm, 16);
            }
            w.ch(' ');
        }
        if (f.has(Field.PID) && f.has(Field.TID)) {
            w.decRight(pid, 5).ch('/').decLeft(tid, 5).ch(' ');
        } else if (f.has(Field.PID)) {
            w.decRight(pid, 5).ch(' ');
        } else if (f.has(Field.TID)) {
            w.decRight(tid, 5).ch(' ');
        }
        if (f.has(Field.CPU)) {
            w.ch('[').decZero(cpu, 3).ch(']').ch(' ');
        }
    }

    @Override
    public void sideBand(PerfRecord r) {
        if (SideBandHeader.shown(r, options)) {
            sideBand(r, SideBandHeader.of(r, machine, events));
        }
    }

    /** Prints a side-band record chosen by the options, after its header. */
    void sideBand(PerfRecord r, SideBandHeader h) {
        if (r instanceof FinishedRoundRecord) {
            // printed as read, without a sample header (process_finished_round_event)
            w.str("PERF_RECORD_FINISHED_ROUND\n");
            return;
        }
        header(h);
        if (r instanceof LostRecord l) {
            w.str("PERF_RECORD_LOST lost ").udec(l.lost()).ch('\n');
        } else if (r instanceof SwitchRecord sw) {
            contextSwitch(sw);
        } else if (r instanceof NamespacesRecord n) {
            namespaces(n);
        } else if (r instanceof CgroupRecord c) {
            w.str("PERF_RECORD_CGROUP cgroup: ").udec(c.id()).ch(' ').str(c.path()).ch('\n');
        } else if (r instanceof KsymbolRecord k) {
            w.str("PERF_RECORD_KSYMBOL addr ").hexRight(k.addr(), 0).str(" len ").udec(Integer.toUnsignedLong(k.len()))
                    .str(" type ").udec(k.ksymType()).str(" flags 0x").hexRight(k.flags(), 0).str(" name ").str(k.name())
                    .ch('\n');
        } else if (r instanceof BpfEventRecord b) {
            w.str("PERF_RECORD_BPF_EVENT type ").udec(b.bpfEventType()).str(", flags ").udec(b.flags()).str(", id ")
                    .udec(Integer.toUnsignedLong(b.id())).ch('\n');
        } else if (r instanceof CommRecord c) {
            w.str("PERF_RECORD_COMM").str(c.exec() ? " exec" : "").str(": ").str(c.comm()).ch(':').decRight(c.pid(), 0)
                    .ch('/').decRight(c.tid(), 0).ch('\n');
        } else if (r instanceof ForkRecord k) {
            task("PERF_RECORD_FORK", k.pid(), k.tid(), k.ppid(), k.ptid());
        } else if (r instanceof ExitRecord x) {
            task("PERF_RECORD_EXIT", x.pid(), x.tid(), x.ppid(), x.ptid());
        } else if (r instanceof MmapRecord m) {
            w.str("PERF_RECORD_MMAP ").decRight(m.pid(), 0).ch('/').decRight(m.tid(), 0).str(": [").hexAlt(m.addr())
                    .ch('(').hexAlt(m.len()).str(") @ ").hexAlt(m.pgoff()).str("]: ")
                    .ch((m.misc() & PerfRecord.PERF_RECORD_MISC_MMAP_DATA) != 0 ? 'r' : 'x').ch(' ').str(m.filename())
                    .ch('\n');
        } else if (r instanceof Mmap2Record m) {
            w.str("PERF_RECORD_MMAP2 ").decRight(m.pid(), 0).ch('/').decRight(m.tid(), 0).str(": [").hexAlt(m.addr())
                    .ch('(').hexAlt(m.len()).str(") @ ").hexAlt(m.pgoff()).ch(' ');
            if (m.buildId() != null) {
                w.ch('<').str(java.util.HexFormat.of().formatHex(m.buildId())).ch('>');
            } else {
                w.hex2(m.maj()).ch(':').hex2(m.min()).ch(' ').udec(m.ino()).ch(' ').udec(m.inoGeneration());
            }
            w.str("]: ").ch((m.prot() & 1) != 0 ? 'r' : '-').ch((m.prot() & 2) != 0 ? 'w' : '-')
                    .ch((m.prot() & 4) != 0 ? 'x' : '-').ch((m.flags() & MAP_SHARED) != 0 ? 's' : 'p').ch(' ')
                    .str(m.filename()).ch('\n');
        }
    }

    /** perf_event__fprintf_switch: per-task SWITCH has only the direction. */
    private void contextSwitch(SwitchRecord r) {
        String inOut = !r.out() ? "IN         " : r.preempt() ? "OUT preempt" : "OUT        ";
        w.str("PERF_RECORD_").str(RecordType.name(r.type())).ch(' ').str(inOut);
        if (r.type() == RecordType.PERF_RECORD_SWITCH) {
            w.ch('\n');
            return;
        }
        w.str("  ").str(r.out() ? "next" : "prev").str(" pid/tid: ").decRight(r.nextPrevPid(), 5).ch('/')
                .decLeft(r.nextPrevTid(), 5).ch('\n');
    }

    /** perf_ns__name: the nsinfo index names of NAMESPACES. */
    private static final String[] NS_NAMES = {"net", "uts", "ipc", "pid", "user", "mnt", "cgroup"};

    /** perf_event__fprintf_namespaces: four (dev, inode) pairs a line. */
    private void namespaces(NamespacesRecord n) {
        long[] devs = n.devs();
        long[] inodes = n.inodes();
        w.str("PERF_RECORD_NAMESPACES ").decRight(n.pid(), 0).ch('/').decRight(n.tid(), 0).str(" - nr_namespaces: ")
                .udec(devs.length).str("\n\t\t[");
        for (int i = 0; i < devs.length; i++) {
            if (i != 0 && i % 4 == 0) {
                w.str("\n\t\t ");
            }
            w.udec(i).ch('/').str(i < NS_NAMES.length ? NS_NAMES[i] : "UNKNOWN").str(": ").udec(devs[i]).ch('/')
                    .hexAlt(inodes[i]).str(i + 1 != devs.length ? ", " : "]\n");
        }
    }

    private void task(String name, int pid, int tid, int ppid, int ptid) {
        w.str(name).ch('(').decRight(pid, 0).ch(':').decRight(tid, 0).str("):(").decRight(ppid, 0).ch(':')
                .decRight(ptid, 0).str(")\n");
    }

    /** The sample-like prefix of a side-band line (none when the record maps to no event). */
    private void header(SideBandHeader h) {
        EventDesc e = h.event();
        if (e != null) {
            OutputFields f = fields[e.index()];
            start(f, callchain[e.index()] && f.has(Field.IP), h.comm(), h.pid(), h.tid(), h.cpu(), h.time());
        }
    }
}
