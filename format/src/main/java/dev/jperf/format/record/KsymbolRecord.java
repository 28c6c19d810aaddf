package dev.jperf.format.record;

/** PERF_RECORD_KSYMBOL: a kernel symbol (BPF program, trampoline...) was registered or, with {@link #PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER}, removed. */
public record KsymbolRecord(long offset, int misc, int size, long addr, int len, int ksymType, int flags, String name, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_KSYMBOL;
    }

    public static final int PERF_RECORD_KSYMBOL_TYPE_BPF = 1;
    public static final int PERF_RECORD_KSYMBOL_TYPE_OOL = 2;
    public static final int PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER = 1;

    public boolean unregister() {
        return (flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER) != 0;
    }
}
