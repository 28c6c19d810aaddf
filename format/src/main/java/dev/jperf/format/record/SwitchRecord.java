package dev.jperf.format.record;

/** PERF_RECORD_SWITCH / PERF_RECORD_SWITCH_CPU_WIDE: a context switch; the CPU-wide form names the
 * task switched to or from ({@code -1} in the per-task form). */
public record SwitchRecord(long offset, int type, int misc, int size, int nextPrevPid, int nextPrevTid, SampleId sampleId) implements PerfRecord {

    public boolean out() {
        return (misc & PerfRecord.PERF_RECORD_MISC_SWITCH_OUT) != 0;
    }

    public boolean preempt() {
        return (misc & PerfRecord.PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) != 0;
    }

    /** SWITCH (no body) and SWITCH_CPU_WIDE (next_prev pid and tid). */
    static SwitchRecord decode(RecordInput r) {
        SampleId id = r.trailer();
        if (r.type == RecordType.PERF_RECORD_SWITCH) {
            return new SwitchRecord(r.offset, r.type, r.misc, r.size, -1, -1, id);
        }
        r.needBody(16);
        return new SwitchRecord(r.offset, r.type, r.misc, r.size, r.s32(8), r.s32(12), id);
    }
}
