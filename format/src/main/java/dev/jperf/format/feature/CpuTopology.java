package dev.jperf.format.feature;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * CPU_TOPOLOGY: "sibling sockets" (package cpu lists), "sibling threads" (core cpu lists), then
 * optionally per-CPU {core_id, socket_id}, then optionally "sibling dies" and per-CPU die_id.
 * Older writers stop early: which parts exist is known only from the section size.
 * {@code cpus} is empty when the ids are absent; {@code hasDies} says whether the die part exists.
 */
public record CpuTopology(List<String> coreSiblings, List<String> threadSiblings, List<CpuId> cpus,
                          boolean hasDies, List<String> dieSiblings) implements FeatureSection {

    /** Ids of one CPU; {@code dieId} is 0 when the file has no die part. */
    public record CpuId(int coreId, int socketId, int dieId) {
    }

    public CpuTopology {
        coreSiblings = List.copyOf(coreSiblings);
        threadSiblings = List.copyOf(threadSiblings);
        cpus = List.copyOf(cpus);
        dieSiblings = List.copyOf(dieSiblings);
        if (hasDies && cpus.isEmpty()) {
            throw new IllegalArgumentException("die ids need per-CPU core/socket ids");
        }
    }

    /**
     * Decodes the body; {@code nrCpusAvail} is NRCPUS' nr_cpus_avail (the number of per-CPU
     * entries), or -1 when the file has no NRCPUS, in which case the per-CPU part is assumed to
     * have no die ids.
     */
    public static CpuTopology decode(ByteBuffer body, int nrCpusAvail) {
        FeatureReader r = new FeatureReader(body, "CPU_TOPOLOGY");
        List<String> cores = strings(r, "sibling sockets");
        List<String> threads = strings(r, "sibling threads");
        if (r.remaining() == 0) {
            return new CpuTopology(cores, threads, List.of(), false, List.of());
        }
        int n = nrCpusAvail >= 0 ? nrCpusAvail : r.remaining() / 8;
        if ((long) n * 8 > r.remaining()) {
            throw r.error(n + " CPUs' core/socket ids do not fit");
        }
        int[] core = new int[n];
        int[] socket = new int[n];
        for (int i = 0; i < n; i++) {
            core[i] = r.u32("core_id");
            socket[i] = r.u32("socket_id");
        }
        List<String> dies = List.of();
        int[] die = new int[n];
        boolean hasDies = r.remaining() > 0;
        if (hasDies) {
            dies = strings(r, "sibling dies");
            if ((long) n * 4 > r.remaining()) {
                throw r.error(n + " CPUs' die ids do not fit");
            }
            for (int i = 0; i < n; i++) {
                die[i] = r.u32("die_id");
            }
        }
        List<CpuId> cpus = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            cpus.add(new CpuId(core[i], socket[i], die[i]));
        }
        return new CpuTopology(cores, threads, cpus, hasDies, dies);
    }

    static List<String> strings(FeatureReader r, String what) {
        int n = r.count("nr " + what, 4);
        List<String> l = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            l.add(r.string(what));
        }
        return l;
    }

    static void strings(FeatureWriter w, List<String> l) {
        w.u32(l.size());
        for (String s : l) {
            w.string(s);
        }
    }

    @Override
    public int bit() {
        return Feature.CPU_TOPOLOGY.bit();
    }

    @Override
    public byte[] encode() {
        FeatureWriter w = new FeatureWriter();
        strings(w, coreSiblings);
        strings(w, threadSiblings);
        for (CpuId c : cpus) {
            w.u32(c.coreId).u32(c.socketId);
        }
        if (hasDies) {
            strings(w, dieSiblings);
            for (CpuId c : cpus) {
                w.u32(c.dieId);
            }
        }
        return w.toByteArray();
    }
}
