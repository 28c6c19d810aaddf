package dev.jperf.format.record;

import dev.jperf.format.header.PerfEventAttr;

/** PERF_RECORD_HEADER_ATTR (pipe mode): an event's attr and ids. */
public record HeaderAttrRecord(long offset, int misc, int size, PerfEventAttr attr, long[] ids) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_HEADER_ATTR;
    }
    public HeaderAttrRecord {
        ids = ids.clone();
    }

    @Override
    public long[] ids() {
        return ids.clone();
    }

    static HeaderAttrRecord decode(RecordInput r) {
        r.need(8 + PerfEventAttr.PERF_ATTR_SIZE_VER0);
        int asz = r.s32(12);
        if (asz == 0) {
            asz = PerfEventAttr.PERF_ATTR_SIZE_VER0;
        }
        if (asz < PerfEventAttr.PERF_ATTR_SIZE_VER0) {
            throw r.bad("attr.size " + asz);
        }
        r.need(8L + asz);
        PerfEventAttr attr = PerfEventAttr.decode(r.src, r.pos + 8, asz);
        long[] ids = r.u64s(8 + asz, (r.size - 8 - asz) / 8);
        return new HeaderAttrRecord(r.offset, r.misc, r.size, attr, ids);
    }
}
