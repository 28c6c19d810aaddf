package dev.jperf.format.record;

import dev.jperf.format.io.ByteSource;

/** PERF_RECORD_HEADER_FEATURE (pipe mode): one feature section ({@code featId} = HEADER_* bit), its body
 * exactly as in a file's feature section. A body-less one with the writer's last feature id ends the list. */
public record HeaderFeatureRecord(long offset, int misc, int size, int featId, ByteSource body) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_HEADER_FEATURE;
    }

    static HeaderFeatureRecord decode(RecordInput r) {
        r.need(16);
        return new HeaderFeatureRecord(r.offset, r.misc, r.size, (int) Math.min(Integer.MAX_VALUE, r.u64(8)),
                r.slice(16, r.size - 16));
    }
}
