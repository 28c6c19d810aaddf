package dev.jperf.format.record;

import dev.jperf.format.io.ByteSource;

/** PERF_RECORD_HEADER_TRACING_DATA (pipe mode): the tracing-data blob of {@code dataSize} bytes that
 * follows the 12-byte record ({@link #data()}, or null when it could not be kept). */
public record TracingDataRecord(long offset, int misc, int size, long dataSize, ByteSource data) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_HEADER_TRACING_DATA;
    }

    /** The header only: the payload is attached by the reader, which knows whether it can keep it. */
    static TracingDataRecord decode(RecordInput r) {
        r.need(12);
        return new TracingDataRecord(r.offset, r.misc, r.size, r.u32(8), null);
    }
}
