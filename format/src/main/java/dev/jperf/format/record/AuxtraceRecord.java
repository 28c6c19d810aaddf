package dev.jperf.format.record;

import dev.jperf.format.io.ByteSource;

/** PERF_RECORD_AUXTRACE: {@code auxSize} bytes of AUX-area data follow the record ({@link #data()};
 * null when reading a stream, where it is skipped). */
public record AuxtraceRecord(long offset, int misc, int size, long auxSize, long auxOffset, long reference, int idx, int tid, int cpu, ByteSource data) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_AUXTRACE;
    }

    /** The header only: the reader attaches the payload that follows. */
    static AuxtraceRecord decode(RecordInput r) {
        r.need(48);
        return new AuxtraceRecord(r.offset, r.misc, r.size, r.u64(8), r.u64(16), r.u64(24), r.s32(32), r.s32(36),
                r.s32(40), null);
    }
}
