package dev.jperf.format.record;

import java.util.Arrays;

/** PERF_RECORD_CPU_MAP: the CPUs the events were opened on (any encoding: list, mask or range). */
public record CpuMapRecord(long offset, int misc, int size, int[] cpus) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_CPU_MAP;
    }

    /** enum perf_record_cpu_map_data_type: how {@code struct perf_record_cpu_map_data} lists the CPUs. */
    public static final int PERF_CPU_MAP__CPUS = 0;
    public static final int PERF_CPU_MAP__MASK = 1;
    public static final int PERF_CPU_MAP__RANGE_CPUS = 2;

    public CpuMapRecord {
        cpus = cpus.clone();
    }

    @Override
    public int[] cpus() {
        return cpus.clone();
    }

    static CpuMapRecord decode(RecordInput r) {
        return new CpuMapRecord(r.offset, r.misc, r.size, cpus(r, 8));
    }

    /** Decodes {@code struct perf_record_cpu_map_data} at {@code at} (list, mask or range; also in EVENT_UPDATE). */
    static int[] cpus(RecordInput r, long at) {
        r.need(at + 4);
        int kind = r.u16(at);
        switch (kind) {
            case PERF_CPU_MAP__CPUS: {
                int nr = r.u16(at + 2);
                r.need(at + 4 + 2L * nr);
                int[] cpus = new int[nr];
                for (int i = 0; i < nr; i++) {
                    cpus[i] = r.u16(at + 4 + 2L * i);
                }
                return cpus;
            }
            case PERF_CPU_MAP__MASK: {
                r.need(at + 6);
                int nr = r.u16(at + 2);
                int longSize = r.u16(at + 4);
                if (longSize != 4 && longSize != 8) {
                    throw r.bad("cpu mask long_size " + longSize);
                }
                long words = longSize == 8 ? at + 10 : at + 6;
                r.need(words + (long) longSize * nr);
                int[] tmp = new int[nr * longSize * 8];
                int n = 0;
                for (int i = 0; i < nr; i++) {
                    long w = longSize == 8 ? r.u64(words + 8L * i) : r.u32(words + 4L * i);
                    for (int b = 0; b < longSize * 8; b++) {
                        if ((w & (1L << b)) != 0) {
                            tmp[n++] = i * longSize * 8 + b;
                        }
                    }
                }
                return Arrays.copyOf(tmp, n);
            }
            case PERF_CPU_MAP__RANGE_CPUS: {
                r.need(at + 8);
                boolean any = r.u8(at + 2) != 0;
                int start = r.u16(at + 4);
                int stop = r.u16(at + 6);
                if (stop < start) {
                    return new int[0];
                }
                int[] cpus = new int[stop - start + 1 + (any ? 1 : 0)];
                int k = 0;
                if (any) {
                    cpus[k++] = -1;
                }
                for (int c = start; c <= stop; c++) {
                    cpus[k++] = c;
                }
                return cpus;
            }
            default:
                throw r.bad("unknown cpu map type " + kind);
        }
    }
}
