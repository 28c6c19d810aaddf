package dev.jperf.report.session;

import dev.jperf.format.header.EventDesc;
import dev.jperf.format.record.SampleRecord;

/**
 * One sample with everything perf's report, script and annotate need: the thread and its name at
 * that moment, where the ip fell ({@link Frame}: mapping, DSO, symbol, level) and, when the sample
 * has a callchain, every frame of it, caller first (perf report's default order), context markers applied and removed (perf's
 * callchain cursor). {@code filtered} is set when --comm/--pid/--tid exclude the sample's thread.
 */
public record ResolvedSample(SampleRecord record, EventDesc event, PerfThread thread, String comm, Frame frame,
        Frame[] callchain, boolean filtered) {
    public long period() {
        return record.period();
    }

    public int cpumode() {
        return record.cpumode();
    }
}
