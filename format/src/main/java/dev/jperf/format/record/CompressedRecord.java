package dev.jperf.format.record;

/** PERF_RECORD_COMPRESSED / PERF_RECORD_COMPRESSED2: {@code dataSize} bytes of a zstd stream; the records it
 * holds are returned after it by the reader. */
public record CompressedRecord(long offset, int type, int misc, int size, long dataSize) implements PerfRecord {
    /** Where the compressed data starts, counted from the record's header. */
    public int dataOffset() {
        return type == RecordType.PERF_RECORD_COMPRESSED2 ? 16 : 8;
    }

    /** COMPRESSED (the data is the rest of the record) and COMPRESSED2 (data_size, then the data). */
    static CompressedRecord decode(RecordInput r) {
        if (r.type == RecordType.PERF_RECORD_COMPRESSED) {
            return new CompressedRecord(r.offset, r.type, r.misc, r.size, r.size - 8L);
        }
        r.need(16);
        long ds = r.u64(8);
        if (ds < 0 || ds > r.size - 16) {
            throw r.bad("data_size " + ds + " does not fit");
        }
        return new CompressedRecord(r.offset, r.type, r.misc, r.size, ds);
    }
}
