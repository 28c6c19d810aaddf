package dev.jperf.report.script;

import dev.jperf.format.record.PerfRecord;
import dev.jperf.format.record.SampleRecord;
import dev.jperf.report.session.Frame;
import dev.jperf.report.session.Machine;
import dev.jperf.report.session.ResolvedSample;

/**
 * perf script walks a callchain callee first and keeps the innermost 127 addresses
 * (PERF_MAX_STACK_DEPTH); the session resolves it in perf report's caller order, which keeps the
 * outermost ones. The two differ only for chains longer than that (broken frame-pointer walks),
 * which this re-resolves the script way, while the session's machine is at the sample's moment.
 * perf report's callee-order call graphs take the same cut.
 */
public final class DeepChains {
    static final int PERF_MAX_STACK_DEPTH = 127;

    private DeepChains() {
    }

    /** {@code s} itself, or for a chain over the limit a copy with the callee-first cut (given caller first). */
    public static ResolvedSample scriptOrder(ResolvedSample s, Machine machine) {
        long[] ips = s.record().callchain();
        if (s.callchain() == null || ips == null || ips.length <= PERF_MAX_STACK_DEPTH) {
            return s;
        }
        int entries = 0;
        for (long ip : ips) {
            if (!SampleRecord.isContextMarker(ip)) {
                entries++;
            }
        }
        if (entries <= PERF_MAX_STACK_DEPTH) {
            return s;
        }
        // thread__resolve_callchain_sample, ORDER_CALLEE: markers switch the cpumode of what follows
        Frame[] callee = new Frame[PERF_MAX_STACK_DEPTH];
        int n = 0;
        int cpumode = PerfRecord.PERF_RECORD_MISC_USER;
        for (int i = 0; i < ips.length && n < PERF_MAX_STACK_DEPTH; i++) {
            long ip = ips[i];
            if (SampleRecord.isContextMarker(ip)) {
                cpumode = SampleRecord.cpumodeAfter(ip);
                if (cpumode < 0) {
                    n = 0; // an unknown marker resets the chain, as perf's cursor reset does
                    break;
                }
                continue;
            }
            callee[n++] = machine.resolve(s.thread(), cpumode, ip);
        }
        Frame[] callerFirst = new Frame[n];
        for (int i = 0; i < n; i++) {
            callerFirst[i] = callee[n - 1 - i];
        }
        return new ResolvedSample(s.record(), s.event(), s.thread(), s.comm(), s.frame(), callerFirst, s.filtered());
    }
}
