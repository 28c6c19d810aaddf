package dev.jperf.report.script;

import dev.jperf.format.header.EventDesc;
import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.record.BpfEventRecord;
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
import dev.jperf.format.record.SampleId;
import dev.jperf.format.record.SwitchRecord;
import dev.jperf.report.session.Machine;
import dev.jperf.report.session.PerfThread;
import java.util.List;

/**
 * What perf script prints before a side-band record (print_event_with_time): its event, the
 * trailer's pid/tid/cpu/time (without sample_id_all: the record's pid/tid, cpu 0, time 0), and
 * the name of its thread at that moment - the record's own (pid, tid) for task and mmap records,
 * the trailer's for KSYMBOL and BPF_EVENT. Taken while the session holds that moment's state.
 *
 * @param event null when the record maps to no event (perf then prints no prefix)
 */
record SideBandHeader(EventDesc event, int pid, int tid, int cpu, long time, String comm) {

    /** Which side-band records the --show-*-events options select. */
    static boolean shown(PerfRecord r, Script.Options o) {
        return (o.shows(Script.Show.BPF) && (r instanceof KsymbolRecord || r instanceof BpfEventRecord))
                || (o.shows(Script.Show.TASK) && (r instanceof CommRecord || r instanceof ForkRecord
                        || r instanceof ExitRecord))
                || (o.shows(Script.Show.MMAP) && (r instanceof MmapRecord || r instanceof Mmap2Record))
                || (o.shows(Script.Show.LOST) && r instanceof LostRecord)
                || (o.shows(Script.Show.SWITCH) && r instanceof SwitchRecord)
                || (o.shows(Script.Show.NAMESPACE) && r instanceof NamespacesRecord)
                || (o.shows(Script.Show.CGROUP) && r instanceof CgroupRecord)
                || (o.shows(Script.Show.ROUND) && r instanceof FinishedRoundRecord);
    }

    /**
     * perf script's filter_cpu: with -C, a side-band record whose trailer names a CPU outside the
     * list is not printed (one without a CPU is).
     */
    static boolean cpuFiltered(PerfRecord r, List<EventDesc> events, Script.Options o) {
        java.util.Set<Integer> cpus = o.filter().cpus();
        if (cpus == null || r instanceof FinishedRoundRecord) {
            return false;
        }
        SampleId id = r.sampleId();
        EventDesc e = id.event() != null ? id.event() : events.size() == 1 ? events.get(0) : null;
        return id.present() && e != null && e.attr().sampleIdAll()
                && (e.attr().sampleType() & PerfEventAttr.PERF_SAMPLE_CPU) != 0 && !cpus.contains(id.cpu());
    }

    static SideBandHeader of(PerfRecord r, Machine machine, List<EventDesc> events) {
        int recPid = -1;
        int recTid = -1;
        if (r instanceof CommRecord c) {
            recPid = c.pid();
            recTid = c.tid();
        } else if (r instanceof ForkRecord f) {
            recPid = f.pid();
            recTid = f.tid();
        } else if (r instanceof ExitRecord x) {
            recPid = x.pid();
            recTid = x.tid();
        } else if (r instanceof MmapRecord m) {
            recPid = m.pid();
            recTid = m.tid();
        } else if (r instanceof Mmap2Record m) {
            recPid = m.pid();
            recTid = m.tid();
        } else if (r instanceof NamespacesRecord n) {
            recPid = n.pid();
            recTid = n.tid();
        }
        // KSYMBOL, BPF_EVENT, LOST, SWITCH and CGROUP: perf takes the thread from the trailer
        boolean ownThread = r instanceof CommRecord || r instanceof ForkRecord || r instanceof ExitRecord
                || r instanceof MmapRecord || r instanceof Mmap2Record || r instanceof NamespacesRecord;
        SampleId id = r.sampleId();
        EventDesc e = id.event() != null ? id.event() : events.size() == 1 ? events.get(0) : null;
        boolean trailer = id.present() && e != null && e.attr().sampleIdAll();
        int pid = trailer ? id.pid() : recPid;
        int tid = trailer ? id.tid() : recTid;
        int tp = ownThread ? recPid : pid;
        int tt = ownThread ? recTid : tid;
        PerfThread t = tt == -1 ? null : machine.findOrCreateThread(tp, tt);
        return new SideBandHeader(e, pid, tid, trailer ? id.cpu() : 0, trailer ? id.time() : 0,
                t == null ? ":-1" : t.comm());
    }
}
