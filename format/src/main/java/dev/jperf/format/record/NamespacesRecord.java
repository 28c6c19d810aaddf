package dev.jperf.format.record;

/** PERF_RECORD_NAMESPACES: the namespaces (dev, inode) of a task, indexed by NET_NS_INDEX ... CGROUP_NS_INDEX. */
public record NamespacesRecord(long offset, int misc, int size, int pid, int tid, long[] devs, long[] inodes, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_NAMESPACES;
    }
    public NamespacesRecord {
        devs = devs.clone();
        inodes = inodes.clone();
    }

    @Override
    public long[] devs() {
        return devs.clone();
    }

    @Override
    public long[] inodes() {
        return inodes.clone();
    }

    static NamespacesRecord decode(RecordInput r) {
        SampleId id = r.trailer();
        r.needBody(24);
        long nr = r.u64(16);
        if (nr < 0 || nr > (r.body() - 24) / 16) {
            throw r.bad("nr_namespaces " + nr + " does not fit");
        }
        long[] devs = new long[(int) nr];
        long[] inos = new long[(int) nr];
        for (int i = 0; i < nr; i++) {
            devs[i] = r.u64(24 + 16L * i);
            inos[i] = r.u64(32 + 16L * i);
        }
        return new NamespacesRecord(r.offset, r.misc, r.size, r.s32(8), r.s32(12), devs, inos, id);
    }
}
