package dev.jperf.format.record;

import dev.jperf.format.header.EventDesc;
import dev.jperf.format.io.ByteSource;
import java.util.Objects;

/**
 * One PERF_RECORD_SAMPLE seen in place, for readers that go through millions of them (report):
 * the fields report uses, filled by {@link RecordDecoder#decodeSample} into this reusable object,
 * and the callchain read from the record's own bytes on demand (nothing copied or allocated).
 * The fields hold until the next decode into the view. Numbers the event does not sample are
 * {@code -1}, as in {@link SampleRecord}.
 */
public final class SampleView {
    EventDesc event;
    long offset;
    int misc;
    int size;
    long id;
    long ip;
    int pid;
    int tid;
    long time;
    int cpu;
    long period;
    ByteSource source;
    long position;
    long callchainAt;
    int callchainNr;

    public EventDesc event() {
        return event;
    }

    /** Where the record starts in the file (see {@link PerfRecord#offset()}). */
    public long offset() {
        return offset;
    }

    public int misc() {
        return misc;
    }

    public int cpumode() {
        return misc & PerfRecord.PERF_RECORD_MISC_CPUMODE_MASK;
    }

    public int size() {
        return size;
    }

    public long id() {
        return id;
    }

    public long ip() {
        return ip;
    }

    public int pid() {
        return pid;
    }

    public int tid() {
        return tid;
    }

    public long time() {
        return time;
    }

    public int cpu() {
        return cpu;
    }

    /** PERF_SAMPLE_PERIOD, or the attr's fixed period (as {@link SampleRecord#period()}). */
    public long period() {
        return period;
    }

    /** The bytes holding the record (they stay valid while referenced). */
    public ByteSource source() {
        return source;
    }

    /** Where the record's header is in {@link #source()}. */
    public long position() {
        return position;
    }

    /** True when the sample has PERF_SAMPLE_CALLCHAIN. */
    public boolean hasCallchain() {
        return callchainNr >= 0;
    }

    /** Entries of the callchain (addresses and PERF_CONTEXT_* markers); 0 without one. */
    public int callchainLength() {
        return Math.max(callchainNr, 0);
    }

    /** Entry {@code i} of the callchain. */
    public long callchain(int i) {
        Objects.checkIndex(i, callchainLength());
        return source.u64(callchainAt + 8L * i);
    }

    /** Where callchain entry 0 is in {@link #source()} (entries are consecutive u64s). */
    public long callchainPosition() {
        return callchainAt;
    }
}
