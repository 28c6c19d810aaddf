package dev.jperf.report.symbol;

import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.bpf.BpfPrograms;
import dev.jperf.format.btf.Btf;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Names for JITed BPF code from HEADER_BPF_PROG_INFO alone, for addresses no KSYMBOL record
 * covers (recorded without ksymbol events, records lost, or a file whose side band was cut): each
 * JITed function {@code jited_ksyms[i]} .. {@code + jited_func_lens[i]} is called as perf's
 * synthesize_bpf_prog_name calls it, {@code bpf_prog_<prog_tags[i]>_<BTF FUNC name>}. When JIT
 * addresses were reused by several programs, the one with the highest id (the latest loaded) wins.
 */
public final class BpfProgSymbols {
    /** One JITed function: [start, start + len), its name and the program id. */
    public record JitedFunction(long start, long len, String name, int progId) {
        public long end() {
            return start + len;
        }
    }

    public static final BpfProgSymbols EMPTY = new BpfProgSymbols(List.of());

    /** Sorted by start (unsigned), then by program id. */
    private final JitedFunction[] functions;
    /** maxEnd[i]: the greatest end (unsigned) of functions[0..i], to stop the backward scan. */
    private final long[] maxEnd;

    private BpfProgSymbols(List<JitedFunction> list) {
        List<JitedFunction> sorted = new ArrayList<>(list);
        sorted.sort(Comparator.comparing(JitedFunction::start, Long::compareUnsigned)
                .thenComparingInt(JitedFunction::progId));
        functions = sorted.toArray(new JitedFunction[0]);
        maxEnd = new long[functions.length];
        long m = 0;
        for (int i = 0; i < functions.length; i++) {
            if (Long.compareUnsigned(functions[i].end(), m) > 0) {
                m = functions[i].end();
            }
            maxEnd[i] = m;
        }
    }

    /** Every JITed function of every program whose subprogram arrays agree (as perf requires). */
    public static BpfProgSymbols of(BpfPrograms programs) {
        List<JitedFunction> out = new ArrayList<>();
        for (BpfProgInfo p : programs.all()) {
            int n = p.subprogCount();
            if (n == 0) {
                continue;
            }
            Btf btf = programs.btf(p).orElse(null);
            long[] ksyms = p.jitedKsyms();
            int[] lens = p.jitedFuncLens();
            for (int i = 0; i < n; i++) {
                long len = Integer.toUnsignedLong(lens[i]);
                if (ksyms[i] != 0 && len != 0) {
                    out.add(new JitedFunction(ksyms[i], len, p.perfName(i, btf), p.id()));
                }
            }
        }
        return new BpfProgSymbols(out);
    }

    public int size() {
        return functions.length;
    }

    public List<JitedFunction> functions() {
        return List.of(functions);
    }

    /** The JITed function holding {@code ip} (the latest loaded program's when several), or null. */
    public JitedFunction find(long ip) {
        int lo = 0;
        int hi = functions.length - 1;
        int last = -1;
        while (lo <= hi) { // last function starting at or before ip
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(functions[mid].start, ip) <= 0) {
                last = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        JitedFunction best = null;
        for (int i = last; i >= 0 && Long.compareUnsigned(maxEnd[i], ip) > 0; i--) {
            JitedFunction f = functions[i];
            if (Long.compareUnsigned(ip, f.end()) < 0 && (best == null || Integer.compareUnsigned(f.progId, best.progId) > 0)) {
                best = f;
            }
        }
        return best;
    }
}
