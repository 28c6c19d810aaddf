package dev.jperf.format.record;

/** PERF_RECORD_CPU_MAP: the CPUs the events were opened on (any encoding: list, mask or range). */
public record CpuMapRecord(long offset, int misc, int size, int[] cpus) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_CPU_MAP;
    }
    public CpuMapRecord {
        cpus = cpus.clone();
    }

    @Override
    public int[] cpus() {
        return cpus.clone();
    }
}
