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

    static KsymbolRecord decode(RecordInput r) {
        r.need(24);
        long nul = r.indexOfNul(24);
        // parse the trailer forward: the kernel may inflate header.size (spec §6)
        long bodyEnd = 24 + ((nul - 24 + 1 + 7) & ~7L);
        SampleId id = r.trailerAt(Math.min(bodyEnd, r.size));
        return new KsymbolRecord(r.offset, r.misc, r.size, r.u64(8), r.s32(16), r.u16(20), r.u16(22),
                r.cString(24, nul - 24), id);
    }
}
