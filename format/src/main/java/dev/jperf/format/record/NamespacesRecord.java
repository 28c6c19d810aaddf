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
}
