package dev.jperf.report.script;

import dev.jperf.format.header.PerfEventAttr;
import dev.jperf.format.record.BranchStack;
import dev.jperf.format.record.PerfRecord;
import dev.jperf.report.script.OutputFields.Field;
import dev.jperf.report.session.Frame;
import dev.jperf.report.session.Machine;
import dev.jperf.report.session.PerfThread;
import dev.jperf.report.session.ResolvedSample;

/**
 * A sample with the addresses other than its ip that -F addr, brstack and brstacksym name, resolved
 * on the session's thread while its maps are those of the sample's moment (the printer runs on
 * another thread, later).
 *
 * @param addr PERF_SAMPLE_ADDR resolved, or null when not printed with a symbol or DSO
 * @param branchFrom the branch stack's from addresses resolved, or null
 * @param branchTo the branch stack's to addresses resolved, or null
 */
record ScriptSample(ResolvedSample sample, Frame addr, Frame[] branchFrom, Frame[] branchTo) {
    /** {@code s} with the other addresses {@code f} prints resolved, or null when it prints none. */
    static ScriptSample of(ResolvedSample s, Machine machine, OutputFields f) {
        boolean addr = f.has(Field.ADDR) && (f.has(Field.SYM) || f.has(Field.DSO))
                && sampleAddrCorrelatesSym(s.event().attr());
        BranchStack br = s.record().branchStack();
        boolean branches = br != null && br.nr() > 0
                && (f.has(Field.BRSTACKSYM) || (f.has(Field.BRSTACK) && f.has(Field.DSO)));
        if (!addr && !branches) {
            return null;
        }
        int cpumode = s.cpumode();
        Frame a = addr ? resolveFallback(machine, s.thread(), cpumode, s.record().addr()) : null;
        Frame[] from = null;
        Frame[] to = null;
        if (branches) {
            long[] fr = br.from();
            long[] t = br.to();
            from = new Frame[fr.length];
            to = new Frame[t.length];
            for (int i = 0; i < fr.length; i++) {
                from[i] = resolveFallback(machine, s.thread(), cpumode, fr[i]);
                to[i] = resolveFallback(machine, s.thread(), cpumode, t[i]);
            }
        }
        return new ScriptSample(s, a, from, to);
    }

    /** perf's sample_addr_correlates_sym without BTS: the data address of a page fault. */
    static boolean sampleAddrCorrelatesSym(PerfEventAttr attr) {
        long c = attr.config();
        return attr.type() == PerfEventAttr.PERF_TYPE_SOFTWARE && (c == PerfEventAttr.PERF_COUNT_SW_PAGE_FAULTS
                || c == PerfEventAttr.PERF_COUNT_SW_PAGE_FAULTS_MIN || c == PerfEventAttr.PERF_COUNT_SW_PAGE_FAULTS_MAJ);
    }

    /**
     * thread__find_map_fb: the address in the sample's address space, else in the one its value
     * belongs to (kernel from 2^63 up, perf's x86_64 kernel_start, which it also keeps for other
     * arches when it cannot load the kernel map).
     */
    static Frame resolveFallback(Machine machine, PerfThread thread, int cpumode, long ip) {
        Frame f = machine.resolve(thread, cpumode, ip);
        int addrMode = ip < 0 ? PerfRecord.PERF_RECORD_MISC_KERNEL : PerfRecord.PERF_RECORD_MISC_USER;
        boolean hostMode = cpumode == PerfRecord.PERF_RECORD_MISC_KERNEL || cpumode == PerfRecord.PERF_RECORD_MISC_USER;
        if (f.map() != null || !hostMode || addrMode == cpumode) {
            return f;
        }
        return machine.resolve(thread, addrMode, ip);
    }
}
