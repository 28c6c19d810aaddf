package dev.jperf.format.record;

import dev.jperf.format.header.EventDesc;

/** PERF_RECORD_READ: counter values of a task (inherit_stat). */
public record ReadRecord(long offset, int misc, int size, int pid, int tid, ReadValues values, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_READ;
    }

    static ReadRecord decode(RecordInput r) {
        SampleId id = r.trailer();
        r.needBody(16);
        EventDesc e = id.event() != null ? id.event() : r.events.events().isEmpty() ? null : r.events.events().get(0);
        long rf = e == null ? 0 : e.attr().readFormat();
        r.seek(16);
        ReadValues v = ReadValues.decode(r, rf, r.body());
        return new ReadRecord(r.offset, r.misc, r.size, r.s32(8), r.s32(12), v, id);
    }
}
