package dev.jperf.format.record;

/** PERF_RECORD_MMAP: a mapping of a file (or [kernel.kallsyms]_text, [vdso], ...) into a process. */
public record MmapRecord(long offset, int misc, int size, int pid, int tid, long addr, long len, long pgoff, String filename, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_MMAP;
    }

    static MmapRecord decode(RecordInput r) {
        SampleId id = r.trailer();
        r.needBody(40);
        return new MmapRecord(r.offset, r.misc, r.size, r.s32(8), r.s32(12), r.u64(16), r.u64(24), r.u64(32),
                r.cString(40, r.body() - 40), id);
    }
}
