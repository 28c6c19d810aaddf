package dev.jperf.report.script;

import dev.jperf.report.session.Frame;
import dev.jperf.report.session.Machine;
import dev.jperf.report.session.ResolvedSample;
import java.util.Arrays;

/**
 * perf script walks a callchain callee first and keeps the innermost --max-stack addresses
 * (PERF_MAX_STACK_DEPTH, 127, by default); the session resolves it in perf report's caller order, which keeps the
 * outermost ones. The two differ only for chains longer than that (broken frame-pointer walks),
 * which this re-resolves the script way, while the session's machine is at the sample's moment.
 * perf report's callee-order call graphs take the same cut.
 */
public final class DeepChains {
    private DeepChains() {
    }

    /** {@code s} itself, or for a chain over the limit a copy with the callee-first cut (given caller first). */
    public static ResolvedSample scriptOrder(ResolvedSample s, Machine machine, int maxStack) {
        // a negative --max-stack keeps nothing, as perf's loop; more than a record holds keeps it all
        int limit = Math.max(0, Math.min(maxStack, Machine.MAX_CHAIN_NR));
        if (s.callchain() == null || s.record().callchainLength() <= limit) {
            return s;
        }
        long[] ips = s.record().callchain();
        Frame[] out = new Frame[limit];
        int n = machine.calleeCut(s.thread(), null, 0, ips, ips.length, out, limit);
        if (n < 0) {
            return s;
        }
        return new ResolvedSample(s.record(), s.event(), s.thread(), s.comm(), s.frame(), Arrays.copyOf(out, n),
                s.filtered());
    }
}
