package dev.jperf.format.record;

/** PERF_RECORD_MMAP2: a mapping with its inode (maj, min, ino, ino_generation) or, when the misc bit
 * PERF_RECORD_MISC_MMAP_BUILD_ID is set, its build id ({@link #buildId()} non-null; the inode fields are then 0). */
public record Mmap2Record(long offset, int misc, int size, int pid, int tid, long addr, long len, long pgoff, int maj, int min, long ino, long inoGeneration, byte[] buildId, int prot, int flags, String filename, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_MMAP2;
    }
    public Mmap2Record {
        buildId = buildId == null ? null : buildId.clone();
    }

    @Override
    public byte[] buildId() {
        return buildId == null ? null : buildId.clone();
    }

    public boolean hasBuildId() {
        return buildId != null;
    }
}
