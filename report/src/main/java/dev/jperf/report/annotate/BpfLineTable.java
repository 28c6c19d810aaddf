package dev.jperf.report.annotate;

import dev.jperf.format.PerfDataFile;
import dev.jperf.format.bpf.BpfLineInfo;
import dev.jperf.format.bpf.BpfProgInfo;
import dev.jperf.format.bpf.BpfSourceLine;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfException;
import dev.jperf.format.feature.BpfProgInfos;
import dev.jperf.format.feature.Features;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every JITed BPF function the file's HEADER_BPF_PROG_INFO describes, with its line table
 * resolved through HEADER_BPF_BTF, looked up by the symbol name perf gave a sample and its ip.
 * Programs whose jited_ksyms / jited_func_lens / prog_tags disagree are skipped, as perf skips them.
 */
public final class BpfLineTable {
    private final List<BpfProgInfo> programs;
    private final Map<String, List<BpfFunction>> byName = new HashMap<>();
    private final Map<BpfProgInfo, BpfFunction[]> byProgram = new IdentityHashMap<>();

    private BpfLineTable(List<BpfProgInfo> programs, Map<Integer, Btf> btfs) {
        this.programs = List.copyOf(programs);
        for (BpfProgInfo p : programs) {
            Btf btf = btfs.get(p.btfId());
            BpfFunction[] fs = new BpfFunction[p.subprogCount()];
            byProgram.put(p, fs);
            for (int i = 0; i < fs.length; i++) {
                BpfFunction f = function(p, i, btf);
                fs[i] = f;
                byName.computeIfAbsent(f.kernelName(), k -> new ArrayList<>(1)).add(f);
                if (!f.perfName().equals(f.kernelName())) {
                    byName.computeIfAbsent(f.perfName(), k -> new ArrayList<>(1)).add(f);
                }
            }
        }
    }

    /**
     * The table of {@code file}'s BPF_PROG_INFO and BPF_BTF (an undecodable section is in the
     * file's warnings; a BTF that does not parse leaves its programs without names and lines).
     */
    public static BpfLineTable of(PerfDataFile file) {
        Features fs = file.features();
        List<BpfProgInfo> progs = fs.bpfProgInfos().map(BpfProgInfos::programs).orElse(List.of());
        Map<Integer, Btf> btfs = new HashMap<>();
        for (BpfProgInfo p : progs) {
            fs.btf(p.btfId()).ifPresent(b -> btfs.put(p.btfId(), b));
        }
        return new BpfLineTable(progs, btfs);
    }

    private static BpfFunction function(BpfProgInfo p, int i, Btf btf) {
        long start = p.jitedKsyms()[i];
        long len = Integer.toUnsignedLong(p.jitedFuncLens()[i]);
        String kernel = p.kernelName(i, btf);
        String perf = p.perfName(i, btf);
        String func = btf != null && i < p.funcInfo().size() ? p.funcInfo().get(i).name(btf).orElse(null) : null;
        if (func == null) {
            func = p.name().isEmpty() ? "F" + i : p.name();
        }
        long[] jl = p.jitedLineInfo();
        List<BpfLineInfo> li = p.lineInfo();
        if (jl.length != li.size()) {
            return new BpfFunction(p, i, start, len, kernel, perf, func, new long[0], new int[0], new BpfSourceLine[0]);
        }
        List<Integer> idx = new ArrayList<>();
        for (int k = 0; k < jl.length; k++) {
            if (Long.compareUnsigned(jl[k], start) >= 0 && Long.compareUnsigned(jl[k] - start, len) < 0) {
                idx.add(k);
            }
        }
        // stable: equal addresses keep line_info order, so lineAt picks the last of them as libbpf does
        idx.sort((a, b) -> Long.compareUnsigned(jl[a], jl[b]));
        long[] addrs = new long[idx.size()];
        int[] index = new int[idx.size()];
        BpfSourceLine[] lines = new BpfSourceLine[idx.size()];
        for (int j = 0; j < addrs.length; j++) {
            int k = idx.get(j);
            addrs[j] = jl[k];
            index[j] = k;
            lines[j] = resolve(li.get(k), btf);
        }
        return new BpfFunction(p, i, start, len, kernel, perf, func, addrs, index, lines);
    }

    private static BpfSourceLine resolve(BpfLineInfo l, Btf btf) {
        if (btf == null) {
            return new BpfSourceLine("", l.line(), l.column(), "");
        }
        try {
            return l.resolve(btf);
        } catch (BtfException e) {
            return new BpfSourceLine("<bad BTF string>", l.line(), l.column(), "");
        }
    }

    /** The function perf named {@code ksym} that holds {@code ip}, or null (not a described program). */
    public BpfFunction find(String ksym, long ip) {
        List<BpfFunction> l = byName.get(ksym);
        if (l == null) {
            return null;
        }
        for (BpfFunction f : l) {
            if (f.contains(ip)) {
                return f;
            }
        }
        return null;
    }

    /** Whether some function of the table is named {@code ksym} ({@link #find} can find it). */
    public boolean names(String ksym) {
        return byName.containsKey(ksym);
    }

    /** JITed function {@code i} of {@code prog} (a program of this table). */
    public BpfFunction function(BpfProgInfo prog, int i) {
        return byProgram.get(prog)[i];
    }

    /** True when the file describes no program (no or empty HEADER_BPF_PROG_INFO). */
    public boolean isEmpty() {
        return programs.isEmpty();
    }
}
