package dev.jperf.report.dump;

import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.record.*;
import java.util.HexFormat;
import java.util.List;

/**
 * Formats a record the way {@code perf report -D} prints its decoded line:
 * {@code [CPU] [TIME] OFFSET [SIZE]: PERF_RECORD_NAME fields}, plus perf's detail lines
 * ("... FP chain", "... id:") for the records that have them.
 */
public final class RecordPrinter {
    private final List<EventDesc> events;
    private final long combinedSampleType;
    private final boolean sampleIdAll;
    private final long offsetBase;

    /**
     * @param events the file's events (for perf's CPU/TIME prefix rule)
     * @param offsetBase subtracted from offsets: perf counts pipe-mode offsets from after the 16-byte header
     */
    public RecordPrinter(List<EventDesc> events, long offsetBase) {
        long st = 0;
        for (EventDesc e : events) {
            st |= e.attr().sampleType();
        }
        this.events = events;
        this.combinedSampleType = st;
        this.sampleIdAll = !events.isEmpty() && events.get(0).attr().sampleIdAll();
        this.offsetBase = offsetBase;
    }

    /** The record's lines, each ending in '\n'. */
    public String format(PerfRecord r) {
        StringBuilder sb = new StringBuilder(128);
        format(r, sb);
        return sb.toString();
    }

    /** Appends the record's lines, each ending in '\n', to {@code sb}. */
    public void format(PerfRecord r, StringBuilder sb) {
        int start = sb.length();
        prefix(sb, r);
        sb.append(hex(r.offset() - offsetBase)).append(" [").append(hex(r.size())).append("]: PERF_RECORD_")
                .append(RecordType.name(r.type()));
        body(sb, r);
        if (sb.length() > start && sb.charAt(sb.length() - 1) != '\n') {
            sb.append('\n');
        }
    }

    /** perf's evlist__print_tstamp: "-1 -1 " without sample_id_all, else CPU and TIME when sampled. */
    private void prefix(StringBuilder sb, PerfRecord r) {
        int cpu = 0;
        long time = 0;
        if (r instanceof SampleRecord s) {
            cpu = s.cpu();
            time = s.time();
        } else if (RecordType.isKernel(r.type())) {
            if (!sampleIdAll || events.isEmpty()) {
                sb.append("-1 -1 ");
                return;
            }
            SampleId id = r.sampleId();
            if (id.present()) {
                cpu = id.cpu();
                time = id.time();
            }
        } else if (events.isEmpty() || !sampleIdAll) {
            sb.append("-1 -1 ");
            return;
        }
        if ((combinedSampleType & PerfEventAttr.PERF_SAMPLE_CPU) != 0) {
            sb.append(Integer.toUnsignedString(cpu)).append(' ');
        }
        if ((combinedSampleType & PerfEventAttr.PERF_SAMPLE_TIME) != 0) {
            sb.append(Long.toUnsignedString(time)).append(' ');
        }
    }

    private void body(StringBuilder sb, PerfRecord r) {
        if (r instanceof SampleRecord s) {
            sample(sb, s);
        } else if (r instanceof MmapRecord m) {
            sb.append(' ').append(m.pid()).append('/').append(m.tid()).append(": [").append(hex(m.addr())).append('(').append(hex(m.len())).append(") @ ").append(hex(m.pgoff())).append("]: ").append((m.misc() & PerfRecord.PERF_RECORD_MISC_MMAP_DATA) != 0 ? 'r' : 'x').append(' ').append(m.filename());
        } else if (r instanceof Mmap2Record m) {
            mmap2(sb, m);
        } else if (r instanceof CommRecord c) {
            sb.append(c.exec() ? " exec" : "").append(": ").append(c.comm()).append(':').append(c.pid()).append('/').append(c.tid());
        } else if (r instanceof ForkRecord f) {
            sb.append('(').append(f.pid()).append(':').append(f.tid()).append("):(").append(f.ppid()).append(':').append(f.ptid()).append(')');
        } else if (r instanceof ExitRecord f) {
            sb.append('(').append(f.pid()).append(':').append(f.tid()).append("):(").append(f.ppid()).append(':').append(f.ptid()).append(')');
        } else if (r instanceof LostRecord l) {
            sb.append(": id:").append(Long.toUnsignedString(l.id())).append(": lost:").append(Long.toUnsignedString(l.lost()));
        } else if (r instanceof LostSamplesRecord l) {
            sb.append(": lost:").append(Long.toUnsignedString(l.lost()));
        } else if (r instanceof ThrottleRecord t) {
            sb.append(": time ").append(Long.toUnsignedString(t.time())).append(" id ").append(Long.toUnsignedString(t.id())).append(" stream_id ").append(Long.toUnsignedString(t.streamId()));
        } else if (r instanceof ReadRecord rd) {
            sb.append(": ").append(rd.pid()).append(' ').append(rd.tid()).append(' ').append(Long.toUnsignedString(rd.values().values()[0]));
        } else if (r instanceof AuxRecord a) {
            sb.append(" offset: ").append(hex(a.auxOffset())).append(" size: ").append(hex(a.auxSize())).append(" flags: ").append(hex(a.flags()));
        } else if (r instanceof ItraceStartRecord i) {
            sb.append(" pid: ").append(i.pid()).append(" tid: ").append(i.tid());
        } else if (r instanceof SwitchRecord s) {
            sb.append(s.out() ? (s.preempt() ? " OUT preempt" : " OUT        ") : " IN         ");
            if (s.type() == RecordType.PERF_RECORD_SWITCH_CPU_WIDE) {
                sb.append(s.out() ? " next" : " prev").append(" pid/tid: ").append(s.nextPrevPid()).append('/')
                        .append(s.nextPrevTid());
            }
        } else if (r instanceof NamespacesRecord n) {
            sb.append(' ').append(n.pid()).append('/').append(n.tid()).append(" - nr_namespaces: ").append(n.devs().length);
            long[] devs = n.devs();
            long[] inos = n.inodes();
            for (int i = 0; i < devs.length; i++) {
                sb.append(i == 0 ? "\n\t\t[" : ", ").append(i).append(": ").append(devs[i]).append('/').append(hex(inos[i]));
            }
            if (devs.length > 0) {
                sb.append(']');
            }
        } else if (r instanceof KsymbolRecord k) {
            sb.append(" addr ").append(Long.toHexString(k.addr())).append(" len ").append(Integer.toUnsignedString(k.len())).append(" type ").append(k.ksymType()).append(" flags 0x").append(Integer.toHexString(k.flags())).append(" name ").append(k.name());
        } else if (r instanceof BpfEventRecord b) {
            sb.append(" type ").append(b.bpfEventType()).append(", flags ").append(b.flags()).append(", id ").append(Integer.toUnsignedString(b.id()));
        } else if (r instanceof CgroupRecord c) {
            sb.append(" cgroup: ").append(Long.toUnsignedString(c.id())).append(' ').append(c.path());
        } else if (r instanceof TextPokeRecord t) {
            sb.append(' ').append(hex(t.addr())).append(" old len ").append(t.oldBytes().length).append(" new len ").append(t.newBytes().length);
        } else if (r instanceof AuxOutputHwIdRecord h) {
            sb.append(" hw_id: ").append(hex(h.hwId()));
        } else if (r instanceof IdIndexRecord x) {
            long[] ids = x.ids();
            long[] idx = x.idx();
            long[] cpus = x.cpus();
            long[] tids = x.tids();
            sb.append(" nr: ").append(ids.length).append('\n');
            for (int i = 0; i < ids.length; i++) {
                sb.append(" ... id: ").append(Long.toUnsignedString(ids[i])).append("  idx: ").append(idx[i])
                        .append("  cpu: ").append(cpus[i]).append("  tid: ").append(tids[i]).append('\n');
            }
        } else if (r instanceof ThreadMapRecord t) {
            long[] pids = t.pids();
            sb.append(" nr: ").append(pids.length).append(pids.length > 1 ? " threads: " : " thread: ");
            for (int i = 0; i < pids.length; i++) {
                sb.append(i == 0 ? "" : ", ").append(pids[i]);
            }
        } else if (r instanceof CpuMapRecord c) {
            sb.append(": ").append(cpuList(c.cpus()));
        } else if (r instanceof EventUpdateRecord u) {
            sb.append("\n... id:    ").append(Long.toUnsignedString(u.id())).append('\n');
            switch ((int) u.updateType()) {
                case EventUpdateRecord.PERF_EVENT_UPDATE__UNIT -> sb.append("... unit:  ").append(u.text()).append('\n');
                case EventUpdateRecord.PERF_EVENT_UPDATE__NAME -> sb.append("... name:  ").append(u.text()).append('\n');
                case EventUpdateRecord.PERF_EVENT_UPDATE__SCALE -> sb.append("... scale: ")
                        .append(String.format(java.util.Locale.ROOT, "%f", u.scale())).append('\n');
                case EventUpdateRecord.PERF_EVENT_UPDATE__CPUS -> sb.append("... cpus:  ").append(cpuList(u.cpus())).append('\n');
                default -> sb.append("... unknown type\n");
            }
        } else if (r instanceof HeaderAttrRecord a) {
            sb.append(": type ").append(a.attr().type()).append(" config ").append(hex(a.attr().config())).append(" ids ").append(a.ids().length);
        } else if (r instanceof HeaderFeatureRecord f) {
            sb.append(": feature ").append(f.featId()).append(" size ").append(f.body().size());
        } else if (r instanceof TracingDataRecord t) {
            sb.append(": size ").append(Long.toUnsignedString(t.dataSize()));
        } else if (r instanceof BuildIdRecord b) {
            sb.append(": ").append(HexFormat.of().formatHex(b.buildId())).append(' ').append(b.filename());
        } else if (r instanceof AuxtraceInfoRecord a) {
            sb.append(": type ").append(a.auxtraceType());
        } else if (r instanceof AuxtraceRecord a) {
            sb.append(" size: ").append(hex(a.auxSize())).append("  offset: ").append(hex(a.auxOffset())).append("  ref: ").append(hex(a.reference())).append("  idx: ").append(a.idx()).append("  tid: ").append(a.tid()).append("  cpu: ").append(a.cpu());
        } else if (r instanceof AuxtraceErrorRecord e) {
            sb.append(": type ").append(e.errorType()).append(" code ").append(e.code()).append(" cpu ").append(e.cpu()).append(" pid ").append(e.pid()).append(" tid ").append(e.tid()).append(" ip ").append(hex(e.ip())).append(" msg ").append(e.msg());
        } else if (r instanceof StatConfigRecord c) {
            long[] tags = c.tags();
            long[] vals = c.values();
            for (int i = 0; i < tags.length; i++) {
                sb.append(i == 0 ? ": " : ", ").append(tags[i]).append('=').append(vals[i]);
            }
        } else if (r instanceof StatRecord s) {
            sb.append(": id ").append(Long.toUnsignedString(s.id())).append(" cpu ").append(s.cpu()).append(" thread ").append(s.thread()).append(" val ").append(Long.toUnsignedString(s.val())).append(" ena ").append(Long.toUnsignedString(s.ena())).append(" run ").append(Long.toUnsignedString(s.run()));
        } else if (r instanceof StatRoundRecord s) {
            sb.append(": type ").append(s.roundType()).append(" time ").append(Long.toUnsignedString(s.time()));
        } else if (r instanceof TimeConvRecord t) {
            sb.append(": time_shift ").append(t.timeShift()).append(" time_mult ").append(Long.toUnsignedString(t.timeMult())).append(" time_zero ").append(Long.toUnsignedString(t.timeZero()));
        } else if (r instanceof CompressedRecord c) {
            sb.append(": data size ").append(c.dataSize());
        } else if (r instanceof EventTypeRecord e) {
            sb.append(": ").append(e.eventId()).append(' ').append(e.name());
        } else if (r instanceof UnknownRecord u) {
            sb.append(" type ").append(Integer.toUnsignedString(u.type())).append(" (skipped)");
        } else if (r instanceof FinishedRoundRecord f) {
        } else if (r instanceof FinishedInitRecord f) {
        }
    }

    private static void mmap2(StringBuilder sb, Mmap2Record m) {
        sb.append(' ').append(m.pid()).append('/').append(m.tid()).append(": [").append(hex(m.addr())).append('(')
                .append(hex(m.len())).append(") @ ").append(hex(m.pgoff())).append(' ');
        if (m.hasBuildId()) {
            sb.append('<').append(HexFormat.of().formatHex(m.buildId())).append('>');
        } else {
            sb.append(String.format("%02x:%02x", m.maj(), m.min())).append(' ').append(Long.toUnsignedString(m.ino()))
                    .append(' ').append(Long.toUnsignedString(m.inoGeneration()));
        }
        int prot = m.prot();
        sb.append("]: ").append((prot & 1) != 0 ? 'r' : '-').append((prot & 2) != 0 ? 'w' : '-')
                .append((prot & 4) != 0 ? 'x' : '-').append((m.flags() & 1) != 0 ? 's' : 'p').append(' ').append(m.filename());
    }

    private static void sample(StringBuilder sb, SampleRecord s) {
        sb.append("(IP, 0x").append(Integer.toHexString(s.misc())).append("): ").append(s.pid()).append('/').append(s.tid())
                .append(": ").append(hex(s.ip())).append(" period: ").append(Long.toUnsignedString(s.period()))
                .append(" addr: ").append(hex(s.addr() == -1 ? 0 : s.addr())).append('\n');
        if (s.hasCallchain()) {
            int nr = s.callchainLength();
            sb.append("... FP chain: nr:").append(nr).append('\n');
            for (int i = 0; i < nr; i++) {
                sb.append(".....");
                String idx = Integer.toString(i);
                for (int k = idx.length(); k < 3; k++) {
                    sb.append(' ');
                }
                sb.append(idx).append(": ");
                hex16(sb, s.callchain(i));
                sb.append('\n');
            }
        }
        BranchStack b = s.branchStack();
        if (b != null) {
            sb.append("... branch stack: nr:").append(b.nr()).append('\n');
            long[] from = b.from();
            long[] to = b.to();
            for (int i = 0; i < from.length; i++) {
                sb.append(".....").append(String.format("%3d", i)).append(": ").append(String.format("%016x", from[i]))
                        .append(" -> ").append(String.format("%016x", to[i])).append('\n');
            }
        }
        if (s.read() != null) {
            long[] v = s.read().values();
            sb.append("... sample_read:").append('\n');
            for (int i = 0; i < v.length; i++) {
                sb.append(".... value: ").append(Long.toUnsignedString(v[i])).append('\n');
            }
        }
        if (s.raw() != null) {
            sb.append("... raw size: ").append(s.raw().length).append('\n');
        }
    }

    /** 16 lower-case hex digits, zero-padded ("%016lx"), without garbage. */
    static void hex16(StringBuilder sb, long v) {
        for (int shift = 60; shift >= 0; shift -= 4) {
            sb.append(Character.forDigit((int) (v >>> shift) & 15, 16));
        }
    }

    /** perf's "%#lx": 0 prints as "0". */
    static String hex(long v) {
        return v == 0 ? "0" : "0x" + Long.toHexString(v);
    }

    /** A CPU list as ranges, "0-1,4" (-1 = any CPU). */
    static String cpuList(int[] cpus) {
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < cpus.length) {
            int j = i;
            while (j + 1 < cpus.length && cpus[j + 1] == cpus[j] + 1) {
                j++;
            }
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(cpus[i]);
            if (j > i) {
                sb.append('-').append(cpus[j]);
            }
            i = j + 1;
        }
        return sb.toString();
    }
}
