package dev.jperf.format.bpf;

import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * The BPF programs of a recording (HEADER_BPF_PROG_INFO with the BTF of HEADER_BPF_BTF), indexed
 * for symbolisation: by id, by tag (what KSYMBOL names carry) and by address. JIT addresses are
 * reused by later programs (corpus d-bpf-storm), so an address alone can match several programs:
 * prefer {@link #byId} (from the BPF_EVENT that follows the KSYMBOLs) or {@link #byKsymName}.
 */
public final class BpfPrograms {
    private final TreeMap<Integer, BpfProgInfo> byId = new TreeMap<>(Integer::compareUnsigned);
    private final Map<String, BpfProgInfo> byTag = new TreeMap<>();
    private final IntFunction<Optional<Btf>> btfs;

    /**
     * @param infos the programs (the first of duplicate ids wins, as in perf)
     * @param btfs BTF by id (e.g. {@code Features::btf}); empty when absent or malformed
     */
    public BpfPrograms(Collection<BpfProgInfo> infos, IntFunction<Optional<Btf>> btfs) {
        this.btfs = btfs;
        for (BpfProgInfo p : infos) {
            if (byId.putIfAbsent(p.id(), p) == null) {
                byTag.putIfAbsent(p.tagHex(), p);
                for (int i = 0; i < p.progTagCount(); i++) {
                    byTag.putIfAbsent(p.progTagHex(i), p);
                }
            }
        }
    }

    /** Every program, by id. */
    public Collection<BpfProgInfo> all() {
        return byId.values();
    }

    public Optional<BpfProgInfo> byId(int id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** The program's BTF, if BPF_BTF holds it and it parses. */
    public Optional<Btf> btf(BpfProgInfo p) {
        if (p.btfId() == 0) {
            return Optional.empty();
        }
        try {
            return btfs.apply(p.btfId());
        } catch (BtfException e) {
            return Optional.empty();
        }
    }

    /**
     * The program a kernel symbol name belongs to: {@code bpf_prog_<16 hex digits>[_name]}, the
     * tag being the program tag (function 0 as the kernel names it) or a prog_tags[i] (perf's
     * synthesized names, subprograms).
     */
    public Optional<BpfProgInfo> byKsymName(String name) {
        if (!name.startsWith("bpf_prog_") || name.length() < 25) {
            return Optional.empty();
        }
        return Optional.ofNullable(byTag.get(name.substring(9, 25).toLowerCase(Locale.ROOT)));
    }

    /** Programs with a JITed function holding {@code ip} (several when addresses were reused), by id. */
    public List<BpfProgInfo> containing(long ip) {
        List<BpfProgInfo> out = new ArrayList<>();
        for (BpfProgInfo p : byId.values()) {
            if (p.locate(ip).isPresent()) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * The program, JITed function and source line at {@code ip}: when JIT addresses were reused by
     * several programs, the one loaded last (the highest id), as report names such an address.
     * Empty when no program of the recording holds it.
     */
    public Optional<BpfSymbol> at(long ip) {
        BpfProgInfo last = null;
        for (BpfProgInfo p : byId.values()) { // ascending id: the last match is the latest loaded
            if (p.locate(ip).isPresent()) {
                last = p;
            }
        }
        return last == null ? Optional.empty() : resolve(last, ip);
    }

    /** Resolves {@code ip} inside program {@code p}: function, names, line record and source line. */
    public Optional<BpfSymbol> resolve(BpfProgInfo p, long ip) {
        Optional<BpfLocation> loc = p.locate(ip);
        if (loc.isEmpty()) {
            return Optional.empty();
        }
        Btf btf = btf(p).orElse(null);
        int i = loc.get().subprog();
        int k = loc.get().lineIndex();
        Optional<BpfSourceLine> line = Optional.empty();
        if (btf != null && k >= 0) {
            try {
                line = Optional.of(p.lineInfo().get(k).resolve(btf));
            } catch (BtfException e) {
                // a line_info pointing outside the strings: no source line for it
            }
        }
        return Optional.of(new BpfSymbol(p, i, p.kernelName(i, btf), p.perfName(i, btf), k, line));
    }
}
