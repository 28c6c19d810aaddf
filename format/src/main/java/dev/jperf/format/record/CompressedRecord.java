package dev.jperf.format.record;

/** PERF_RECORD_COMPRESSED / PERF_RECORD_COMPRESSED2: {@code dataSize} bytes of a zstd stream; the records it
 * holds are returned after it by the reader. */
public record CompressedRecord(long offset, int type, int misc, int size, long dataSize) implements PerfRecord {
}
