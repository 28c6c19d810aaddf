package dev.jperf.format.record;

import static dev.jperf.format.header.PerfEventAttr.*;

import dev.jperf.format.header.EventDesc;
import dev.jperf.format.io.ByteSource;

/**
 * The sample_id trailer of a non-SAMPLE record (attr.sample_id_all), and the event the record
 * belongs to. Fields the event does not sample are {@code -1}, as in perf.
 *
 * @param event the event (evsel) the record was mapped to; null when unknown
 */
public record SampleId(int pid, int tid, long time, long id, long streamId, int cpu, EventDesc event) {
    /** No trailer. */
    public static final SampleId NONE = new SampleId(-1, -1, -1, -1, -1, -1, null);

    public boolean present() {
        return this != NONE;
    }

    /** The trailer at {@code p} in {@code src}, of event {@code e}'s sample_type (see {@link SampleLayout}). */
    static SampleId decode(ByteSource src, long p, EventDesc e) {
        long st = e.attr().sampleType();
        int pid = -1;
        int tid = -1;
        long time = -1;
        long id = -1;
        long sid = -1;
        int cpu = -1;
        if ((st & PERF_SAMPLE_TID) != 0) {
            pid = src.s32(p);
            tid = src.s32(p + 4);
            p += 8;
        }
        if ((st & PERF_SAMPLE_TIME) != 0) {
            time = src.u64(p);
            p += 8;
        }
        if ((st & PERF_SAMPLE_ID) != 0) {
            id = src.u64(p);
            p += 8;
        }
        if ((st & PERF_SAMPLE_STREAM_ID) != 0) {
            sid = src.u64(p);
            p += 8;
        }
        if ((st & PERF_SAMPLE_CPU) != 0) {
            cpu = src.s32(p);
            p += 8;
        }
        if ((st & PERF_SAMPLE_IDENTIFIER) != 0) {
            id = src.u64(p);
        }
        return new SampleId(pid, tid, time, id, sid, cpu, e);
    }
}
