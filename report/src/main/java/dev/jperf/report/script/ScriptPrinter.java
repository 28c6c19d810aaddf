package dev.jperf.report.script;

import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.record.BpfEventRecord;
import dev.jperf.format.record.CommRecord;
import dev.jperf.format.record.ExitRecord;
import dev.jperf.format.record.ForkRecord;
import dev.jperf.format.record.KsymbolRecord;
import dev.jperf.format.record.Mmap2Record;
import dev.jperf.format.record.MmapRecord;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.SampleId;
import dev.jperf.format.record.SampleRecord;
import dev.jperf.report.script.OutputFields.Field;
import dev.jperf.report.session.Frame;
import dev.jperf.report.session.Machine;
import dev.jperf.report.session.PerfThread;
import dev.jperf.report.session.ResolvedSample;
import dev.jperf.report.session.SampleConsumer;
import dev.jperf.report.symbol.Dso;
import dev.jperf.report.symbol.Symbol;
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
    // a frame is shared by every sample at that address: render it once
    private final Map<Frame, byte[]> sampleIpText = new IdentityHashMap<>();
    private final Map<Frame, byte[]> chainText = new IdentityHashMap<>();

    ScriptPrinter(LineWriter w, Machine machine, List<EventDesc> events, OutputFields requested, boolean useCallchain,
            Script.Options options) {
        this.w = w;
        this.machine = machine;
        this.events = events;
        this.options = options;
        this.fields = new OutputFields[events.size()];
        this.callchain = new boolean[events.size()];
        int width = 0;
        for (EventDesc e : events) {
            fields[e.index()] = requested.forEvent(e);
            callchain[e.index()] = useCallchain && (e.attr().sampleType() & PerfEventAttr.PERF_SAMPLE_CALLCHAIN) != 0;
            width = Math.max(width, LineWriter.utf8Length(e.name()));
        }
        this.nameWidth = width;
    }

    @Override
    public void sample(ResolvedSample rs) {
        SampleRecord s = rs.record();
        EventDesc e = rs.event();
        OutputFields f = fields[e.index()];
        boolean chain = callchain[e.index()] && rs.callchain() != null;
        start(f, callchain[e.index()] && f.has(Field.IP), rs.comm(), s.pid(), s.tid(), s.cpu(), s.time());
        if (f.has(Field.PERIOD)) {
            w.decRight(s.period(), 10).ch(' ');
        }
        if (f.has(Field.EVNAME)) {
            w.strRight(e.name(), nameWidth).ch(':').ch(' ');
        }
        if (f.has(Field.IP)) {
            if (chain) {
                w.ch('\n');
                // the session gives perf report's caller order; perf script prints callee first
                Frame[] cc = rs.callchain();
                for (int i = cc.length - 1; i >= 0; i--) {
                    w.bytes(chainText.computeIfAbsent(cc[i], x -> render(x, chainIp(x), f, "\t", "\n")));
                }
            } else {
                w.bytes(sampleIpText.computeIfAbsent(rs.frame(), x -> render(x, x.ip(), f, " ", "")));
            }
        }
        w.ch('\n');
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
                    long off = Long.compareUnsigned(fr.addr(), sym.end()) < 0 || fr.map() == null ? fr.addr() - sym.start()
                            : fr.addr() - fr.map().start() - sym.start();
                    sb.append("+0x").append(Long.toHexString(off));
                }
            }
        }
        if (f.has(Field.DSO)) {
            Dso d = fr.dso();
            sb.append(" (").append(d == null ? "[unknown]" : d.longName()).append(')');
        }
        return sb.append(suffix).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** perf_sample__fprintf_start: comm, pid/tid, cpu, time. */
    private void start(OutputFields f, boolean unpaddedComm, String comm, int pid, int tid, int cpu, long time) {
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
        if (f.has(Field.TIME)) {
            // timestamp__scnprintf_usec, then %12s
            long secs = Long.divideUnsigned(time, 1_000_000_000L);
            long usecs = Long.remainderUnsigned(time, 1_000_000_000L) / 1000;
            int len = Long.toUnsignedString(secs).length() + 7;
            w.spaces(12 - len).udec(secs).ch('.').decZero(usecs, 6).ch(':').ch(' ');
        }
    }

    @Override
    public void sideBand(PerfRecord r) {
        if (r instanceof KsymbolRecord k && options.showBpfEvents()) {
            header(k.sampleId(), k.sampleId().pid(), k.sampleId().tid(), true, -1, -1);
            w.str("PERF_RECORD_KSYMBOL addr ").hexRight(k.addr(), 0).str(" len ").udec(Integer.toUnsignedLong(k.len()))
                    .str(" type ").udec(k.ksymType()).str(" flags 0x").hexRight(k.flags(), 0).str(" name ").str(k.name())
                    .ch('\n');
        } else if (r instanceof BpfEventRecord b && options.showBpfEvents()) {
            header(b.sampleId(), b.sampleId().pid(), b.sampleId().tid(), true, -1, -1);
            w.str("PERF_RECORD_BPF_EVENT type ").udec(b.bpfEventType()).str(", flags ").udec(b.flags()).str(", id ")
                    .udec(Integer.toUnsignedLong(b.id())).ch('\n');
        } else if (r instanceof CommRecord c && options.showTaskEvents()) {
            header(c.sampleId(), c.pid(), c.tid(), false, c.pid(), c.tid());
            w.str("PERF_RECORD_COMM").str(c.exec() ? " exec" : "").str(": ").str(c.comm()).ch(':').decRight(c.pid(), 0)
                    .ch('/').decRight(c.tid(), 0).ch('\n');
        } else if (r instanceof ForkRecord k && options.showTaskEvents()) {
            header(k.sampleId(), k.pid(), k.tid(), false, k.pid(), k.tid());
            task("PERF_RECORD_FORK", k.pid(), k.tid(), k.ppid(), k.ptid());
        } else if (r instanceof ExitRecord x && options.showTaskEvents()) {
            header(x.sampleId(), x.pid(), x.tid(), false, x.pid(), x.tid());
            task("PERF_RECORD_EXIT", x.pid(), x.tid(), x.ppid(), x.ptid());
        } else if (r instanceof MmapRecord m && options.showMmapEvents()) {
            header(m.sampleId(), m.pid(), m.tid(), false, m.pid(), m.tid());
            w.str("PERF_RECORD_MMAP ").decRight(m.pid(), 0).ch('/').decRight(m.tid(), 0).str(": [").hexAlt(m.addr())
                    .ch('(').hexAlt(m.len()).str(") @ ").hexAlt(m.pgoff()).str("]: ")
                    .ch((m.misc() & PerfRecord.PERF_RECORD_MISC_MMAP_DATA) != 0 ? 'r' : 'x').ch(' ').str(m.filename())
                    .ch('\n');
        } else if (r instanceof Mmap2Record m && options.showMmapEvents()) {
            header(m.sampleId(), m.pid(), m.tid(), false, m.pid(), m.tid());
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

    private void task(String name, int pid, int tid, int ppid, int ptid) {
        w.str(name).ch('(').decRight(pid, 0).ch(':').decRight(tid, 0).str("):(").decRight(ppid, 0).ch(':')
                .decRight(ptid, 0).str(")\n");
    }

    /**
     * The sample-like prefix of a side-band line. Its thread is the record's own (pid, tid) for
     * task and mmap records, the trailer's for the others; without sample_id_all perf takes
     * cpu 0, time 0 and the record's pid/tid.
     */
    private void header(SampleId id, int recPid, int recTid, boolean threadFromTrailer, int threadPid, int threadTid) {
        EventDesc e = id.event() != null ? id.event() : events.size() == 1 ? events.get(0) : null;
        boolean trailer = id.present() && e != null && e.attr().sampleIdAll();
        int pid = trailer ? id.pid() : recPid;
        int tid = trailer ? id.tid() : recTid;
        int cpu = trailer ? id.cpu() : 0;
        long time = trailer ? id.time() : 0;
        int tp = threadFromTrailer ? pid : threadPid;
        int tt = threadFromTrailer ? tid : threadTid;
        PerfThread t = tt == -1 ? null : machine.findOrCreateThread(tp, tt);
        if (e == null) {
            return;
        }
        OutputFields f = fields[e.index()];
        start(f, callchain[e.index()] && f.has(Field.IP), t == null ? ":-1" : t.comm(), pid, tid, cpu, time);
    }
}
