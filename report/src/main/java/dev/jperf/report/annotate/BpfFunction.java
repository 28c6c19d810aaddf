package dev.jperf.report.annotate;

import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.bpf.BpfSourceLine;
import java.util.Arrays;

/**
 * One JITed function (main program or subprogram) of a BPF program as HEADER_BPF_PROG_INFO
 * describes it: {@code [start, start+len)}, its names, and its line records (the line_info
 * entries whose jited_line_info address lies in the function) sorted by JIT address.
 *
 * @param index position in jited_ksyms (0 = the main program)
 * @param kernelName the KSYMBOL / kallsyms name (function 0 uses the program tag)
 * @param perfName perf's synthesized name (function 0 uses prog_tags[0]); equals kernelName for subprograms
 * @param funcName the BTF FUNC name, else the program name
 * @param lineAddrs JIT address of each line record, ascending
 * @param lineIndex line_info index of each line record
 * @param lines each line record resolved against the program's BTF
 */
public record BpfFunction(BpfProgInfo prog, int index, long start, long len, String kernelName, String perfName,
        String funcName, long[] lineAddrs, int[] lineIndex, BpfSourceLine[] lines) {

    public boolean contains(long ip) {
        return Long.compareUnsigned(ip, start) >= 0 && Long.compareUnsigned(ip - start, len) < 0;
    }

    public boolean hasLines() {
        return lineAddrs.length > 0;
    }

    /**
     * The line record holding {@code ip}: the one with the greatest JIT address &lt;= ip, the last
     * of equal ones (libbpf's bpf_prog_linfo__lfind_addr_func); -1 before the first record.
     */
    public int lineAt(long ip) {
        int lo = 0;
        int hi = lineAddrs.length - 1;
        int best = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(lineAddrs[mid], ip) <= 0) {
                best = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return best;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BpfFunction f && f.prog == prog && f.index == index;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(prog) * 31 + index;
    }

    @Override
    public String toString() {
        return "BpfFunction[" + kernelName + ", prog " + Integer.toUnsignedString(prog.id()) + ", " + index + ", lines "
                + Arrays.toString(lineIndex) + "]";
    }
}
