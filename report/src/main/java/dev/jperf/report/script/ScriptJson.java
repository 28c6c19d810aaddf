package dev.jperf.report.script;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
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
import dev.jperf.format.record.Regs;
import dev.jperf.format.record.SampleRecord;
import dev.jperf.format.record.SwitchRecord;
import dev.jperf.report.script.OutputFields.Field;
import dev.jperf.report.session.Frame;
import dev.jperf.report.session.Machine;
import dev.jperf.report.session.ResolvedSample;
import dev.jperf.report.session.SampleConsumer;
import dev.jperf.report.symbol.Symbol;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.HexFormat;
import java.util.List;

/**
 * script --json: one JSON object per line. Samples carry the selected fields (time in ns, addresses
 * as "0x..." strings since u64 does not fit a JSON number), a callchain array when there is one;
 * side-band records chosen with --show-*-events carry "type" (PERF_RECORD_*) and their fields.
 */
final class ScriptJson implements SampleConsumer {
    private final JsonGenerator g;
    private final Machine machine;
    private final List<EventDesc> events;
    private final OutputFields[] fields;
    private final boolean[] callchain;
    private final Script.Options options;
    private final PerfRegs regs;

    ScriptJson(OutputStream out, Machine machine, List<EventDesc> events, OutputFields requested, boolean useCallchain,
            Script.Options options, String arch) {
        this.regs = new PerfRegs(arch);
        try {
            this.g = new JsonFactory().createGenerator(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        g.setPrettyPrinter(new MinimalPrettyPrinter("\n"));
        this.machine = machine;
        this.events = events;
        this.options = options;
        this.fields = requested.perEvent(events);
        this.callchain = new boolean[events.size()];
        for (EventDesc e : events) {
            callchain[e.index()] = useCallchain && (e.attr().sampleType() & PerfEventAttr.PERF_SAMPLE_CALLCHAIN) != 0;
        }
    }

    /** Ends the last line and flushes. */
    void finish() {
        try {
            g.flush();
            if (g.getOutputContext().getEntryCount() > 0) {
                ((OutputStream) g.getOutputTarget()).write('\n');
            }
            g.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void sample(ResolvedSample sample) {
        if (sample.filtered()) {
            return;
        }
        ResolvedSample rs = DeepChains.scriptOrder(sample, machine, options.maxStack());
        try {
            SampleRecord s = rs.record();
            OutputFields f = fields[rs.event().index()];
            g.writeStartObject();
            start(f, rs.comm(), s.pid(), s.tid(), s.cpu(), s.time());
            if (f.has(Field.PERIOD)) {
                g.writeNumberField("period", s.period());
            }
            if (f.has(Field.EVNAME)) {
                g.writeStringField("event", rs.event().name());
            }
            ScriptSample extra = ScriptSample.of(rs, machine, f);
            if (f.has(Field.ADDR)) {
                g.writeStringField("addr", "0x" + Long.toHexString(s.addr()));
                if (extra != null && extra.addr() != null) {
                    target(f, "addr_", extra.addr(), f.has(Field.SYM), f.has(Field.SYMOFFSET));
                }
            }
            if (f.has(Field.IP)) {
                frame(f, rs.frame(), s.ip());
                if (callchain[rs.event().index()] && rs.callchain() != null) {
                    g.writeArrayFieldStart("callchain");
                    Frame[] cc = rs.callchain();
                    for (int i = cc.length - 1; i >= 0; i--) {
                        g.writeStartObject();
                        frame(f, cc[i], ScriptPrinter.chainIp(cc[i]));
                        g.writeEndObject();
                        // --stop-bt, as the text's
                        if (cc[i].symbol() != null && options.stopBt().contains(cc[i].symbol().name())) {
                            break;
                        }
                    }
                    g.writeEndArray();
                }
            }
            if (f.has(Field.IREGS)) {
                regs("iregs", s.regsIntr());
            }
            if (f.has(Field.UREGS)) {
                regs("uregs", s.regsUser());
            }
            if (f.has(Field.BRSTACK) || f.has(Field.BRSTACKSYM)) {
                brstack(f, s.branchStack(), extra);
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code "iregs": {"abi": n, "regs": {"AX": "0x..", ...}}}; nothing when the sample has no registers. */
    private void regs(String field, Regs r) throws IOException {
        if (r == null || r.abi() == 0) {
            return;
        }
        g.writeObjectFieldStart(field);
        g.writeNumberField("abi", r.abi());
        g.writeObjectFieldStart("regs");
        String[] names = regs.names(r);
        long[] values = r.regs();
        for (int i = 0; i < names.length; i++) {
            g.writeStringField(names[i], "0x" + Long.toHexString(values[i]));
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    /** {@code "brstack": [{from, to, (from_|to_)sym/symoff/dso as chosen, mispred, in_tx, abort, cycles, type}]}. */
    private void brstack(OutputFields f, BranchStack br, ScriptSample extra) throws IOException {
        if (br == null || br.nr() == 0) {
            return;
        }
        long[] from = br.from();
        long[] to = br.to();
        long[] flags = br.flags();
        boolean sym = f.has(Field.BRSTACKSYM) && !f.has(Field.BRSTACK);
        boolean resolved = extra != null && extra.branchFrom() != null;
        g.writeArrayFieldStart("brstack");
        for (int i = 0; i < from.length; i++) {
            g.writeStartObject();
            g.writeStringField("from", "0x" + Long.toHexString(from[i]));
            g.writeStringField("to", "0x" + Long.toHexString(to[i]));
            if (resolved) {
                target(f, "from_", extra.branchFrom()[i], sym, sym);
                target(f, "to_", extra.branchTo()[i], sym, sym);
            }
            g.writeStringField("mispred", String.valueOf(BranchFlags.mispred(flags[i])));
            g.writeBooleanField("in_tx", (flags[i] & BranchFlags.IN_TX) != 0);
            g.writeBooleanField("abort", (flags[i] & BranchFlags.ABORT) != 0);
            g.writeNumberField("cycles", BranchFlags.cycles(flags[i]));
            g.writeStringField("type", BranchFlags.type(flags[i]));
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** The symbol (and offset) and DSO of a resolved address, as the text names them, under {@code prefix}. */
    private void target(OutputFields f, String prefix, Frame fr, boolean sym, boolean symoff) throws IOException {
        if (sym) {
            Symbol s = fr.symbol();
            g.writeStringField(prefix + "sym", s == null ? "[unknown]" : s.name());
            if (s != null && symoff) {
                g.writeNumberField(prefix + "symoff", ScriptPrinter.symbolOffset(fr, s));
            }
        }
        if (f.has(Field.DSO)) {
            g.writeStringField(prefix + "dso", ScriptPrinter.dsoName(fr));
        }
    }

    private void frame(OutputFields f, Frame fr, long ip) throws IOException {
        g.writeStringField("ip", "0x" + Long.toHexString(ip));
        if (f.has(Field.SYM)) {
            Symbol sym = fr.symbol();
            g.writeStringField("sym", sym == null ? "[unknown]" : sym.name());
            if (sym != null && f.has(Field.SYMOFFSET)) {
                g.writeNumberField("symoff", fr.addr() - sym.start());
            }
        }
        if (f.has(Field.DSO)) {
            g.writeStringField("dso", fr.dso() == null ? "[unknown]" : fr.dso().longName());
        }
    }

    private void start(OutputFields f, String comm, int pid, int tid, int cpu, long time) throws IOException {
        if (f.has(Field.COMM)) {
            g.writeStringField("comm", comm);
        }
        if (f.has(Field.PID)) {
            g.writeNumberField("pid", pid);
        }
        if (f.has(Field.TID)) {
            g.writeNumberField("tid", tid);
        }
        if (f.has(Field.CPU)) {
            g.writeNumberField("cpu", cpu);
        }
        if (f.has(Field.TIME)) {
            g.writeNumberField("time", time);
        }
    }

    @Override
    public void sideBand(PerfRecord r) {
        if (!SideBandHeader.shown(r, options) || SideBandHeader.cpuFiltered(r, events, options)) {
            return;
        }
        try {
            if (r instanceof FinishedRoundRecord) {
                g.writeStartObject();
                g.writeStringField("type", "PERF_RECORD_FINISHED_ROUND");
                g.writeEndObject();
                return;
            }
            header(r, SideBandHeader.of(r, machine, events));
            if (r instanceof LostRecord l) {
                g.writeNumberField("id", l.id());
                g.writeNumberField("lost", l.lost());
            } else if (r instanceof SwitchRecord sw) {
                g.writeBooleanField("out", sw.out());
                g.writeBooleanField("preempt", sw.preempt());
                if (sw.type() == RecordType.PERF_RECORD_SWITCH_CPU_WIDE) {
                    g.writeNumberField("next_prev_pid", sw.nextPrevPid());
                    g.writeNumberField("next_prev_tid", sw.nextPrevTid());
                }
            } else if (r instanceof NamespacesRecord n) {
                g.writeNumberField("record_pid", n.pid());
                g.writeNumberField("record_tid", n.tid());
                g.writeArrayFieldStart("namespaces");
                long[] devs = n.devs();
                long[] inodes = n.inodes();
                for (int i = 0; i < devs.length; i++) {
                    g.writeStartObject();
                    g.writeNumberField("dev", devs[i]);
                    g.writeNumberField("ino", inodes[i]);
                    g.writeEndObject();
                }
                g.writeEndArray();
            } else if (r instanceof CgroupRecord c) {
                g.writeNumberField("id", c.id());
                g.writeStringField("path", c.path());
            } else if (r instanceof KsymbolRecord k) {
                g.writeStringField("addr", "0x" + Long.toHexString(k.addr()));
                g.writeNumberField("len", Integer.toUnsignedLong(k.len()));
                g.writeNumberField("ksym_type", k.ksymType());
                g.writeNumberField("flags", k.flags());
                g.writeStringField("name", k.name());
            } else if (r instanceof BpfEventRecord b) {
                g.writeNumberField("bpf_event_type", b.bpfEventType());
                g.writeNumberField("flags", b.flags());
                g.writeNumberField("id", Integer.toUnsignedLong(b.id()));
                g.writeStringField("tag", HexFormat.of().formatHex(b.tag()));
            } else if (r instanceof CommRecord c) {
                g.writeBooleanField("exec", c.exec());
                g.writeStringField("new_comm", c.comm());
                g.writeNumberField("record_pid", c.pid());
                g.writeNumberField("record_tid", c.tid());
            } else if (r instanceof ForkRecord k) {
                task(k.pid(), k.tid(), k.ppid(), k.ptid());
            } else if (r instanceof ExitRecord x) {
                task(x.pid(), x.tid(), x.ppid(), x.ptid());
            } else if (r instanceof MmapRecord m) {
                mmap(m.pid(), m.tid(), m.addr(), m.len(), m.pgoff(), m.filename());
                g.writeBooleanField("exec", (m.misc() & PerfRecord.PERF_RECORD_MISC_MMAP_DATA) == 0);
            } else if (r instanceof Mmap2Record m) {
                mmap(m.pid(), m.tid(), m.addr(), m.len(), m.pgoff(), m.filename());
                g.writeNumberField("prot", m.prot());
                g.writeNumberField("flags", m.flags());
                if (m.buildId() != null) {
                    g.writeStringField("build_id", HexFormat.of().formatHex(m.buildId()));
                } else {
                    g.writeNumberField("maj", m.maj());
                    g.writeNumberField("min", m.min());
                    g.writeNumberField("ino", m.ino());
                    g.writeNumberField("ino_generation", m.inoGeneration());
                }
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void task(int pid, int tid, int ppid, int ptid) throws IOException {
        g.writeNumberField("record_pid", pid);
        g.writeNumberField("record_tid", tid);
        g.writeNumberField("ppid", ppid);
        g.writeNumberField("ptid", ptid);
    }

    private void mmap(int pid, int tid, long addr, long len, long pgoff, String filename) throws IOException {
        g.writeNumberField("record_pid", pid);
        g.writeNumberField("record_tid", tid);
        g.writeStringField("addr", "0x" + Long.toHexString(addr));
        g.writeStringField("len", "0x" + Long.toHexString(len));
        g.writeStringField("pgoff", "0x" + Long.toHexString(pgoff));
        g.writeStringField("filename", filename);
    }

    /** Opens the object: type, then the prefix fields perf script would print. */
    private void header(PerfRecord r, SideBandHeader h) throws IOException {
        g.writeStartObject();
        g.writeStringField("type", "PERF_RECORD_" + RecordType.name(r.type()));
        if (h.event() != null) {
            start(fields[h.event().index()], h.comm(), h.pid(), h.tid(), h.cpu(), h.time());
        }
    }
}
