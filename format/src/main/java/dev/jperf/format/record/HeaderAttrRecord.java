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
}
