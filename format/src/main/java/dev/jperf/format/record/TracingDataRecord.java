package dev.jperf.format.record;

import dev.jperf.format.io.ByteSource;

/** PERF_RECORD_HEADER_TRACING_DATA (pipe mode): the tracing-data blob of {@code dataSize} bytes that
 * follows the 12-byte record ({@link #data()}, or null when it could not be kept). */
public record TracingDataRecord(long offset, int misc, int size, long dataSize, ByteSource data) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_HEADER_TRACING_DATA;
    }
}
