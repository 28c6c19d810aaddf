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

    static Mmap2Record decode(RecordInput r) {
        SampleId id = r.trailer();
        r.needBody(72);
        int maj = 0;
        int min = 0;
        long ino = 0;
        long gen = 0;
        byte[] bid = null;
        if ((r.misc & PerfRecord.PERF_RECORD_MISC_MMAP_BUILD_ID) != 0) {
            bid = r.bytes(44, Math.min(20, r.u8(40)));
        } else {
            maj = r.s32(40);
            min = r.s32(44);
            ino = r.u64(48);
            gen = r.u64(56);
        }
        return new Mmap2Record(r.offset, r.misc, r.size, r.s32(8), r.s32(12), r.u64(16), r.u64(24), r.u64(32), maj, min,
                ino, gen, bid, r.s32(64), r.s32(68), r.cString(72, r.body() - 72), id);
    }
}
