package dev.jperf.format.record;

/** PERF_RECORD_MMAP: a mapping of a file (or [kernel.kallsyms]_text, [vdso], ...) into a process. */
public record MmapRecord(long offset, int misc, int size, int pid, int tid, long addr, long len, long pgoff, String filename, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_MMAP;
    }
}
