package dev.jperf.format.record;

import static dev.jperf.format.record.RecordType.*;

import dev.jperf.format.io.ByteSource;

/**
 * Decodes one record at a position of a {@link ByteSource} into its typed form: reads the
 * header and hands the record to its type's decoder (each record class parses its own layout),
 * mapping it to its event through the {@link EventRegistry} as perf does (spec §9).
 *
 * <p>A record whose body does not fit its size raises {@link dev.jperf.format.PerfDataException};
 * nothing is ever read or allocated beyond the record.
 */
public final class RecordDecoder {
    private final String name;
    private final EventRegistry events;

    /** {@code name} names the input in error messages. */
    public RecordDecoder(String name, EventRegistry events) {
        this.name = name;
        this.events = events;
    }

    /** Reads header.type at {@code pos}. */
    public static int type(ByteSource src, long pos) {
        return src.s32(pos);
    }

    /** Reads header.size at {@code pos}. */
    public static int size(ByteSource src, long pos) {
        return src.u16(pos + 6);
    }

    /**
     * Decodes the record starting at {@code pos} in {@code src}; the caller has checked that its
     * header.size bytes are in {@code src}. {@code offset} is what {@link PerfRecord#offset()} reports.
     */
    public PerfRecord decode(ByteSource src, long pos, long offset) {
        if (src.s32(pos) == PERF_RECORD_SAMPLE) {
            return SampleRecord.decode(name, events, src, pos, offset);
        }
        RecordInput r = new RecordInput(name, events, src, pos, offset);
        switch (r.type) {
            case PERF_RECORD_MMAP:
                return MmapRecord.decode(r);
            case PERF_RECORD_MMAP2:
                return Mmap2Record.decode(r);
            case PERF_RECORD_COMM:
                return CommRecord.decode(r);
            case PERF_RECORD_EXIT:
                return ExitRecord.decode(r);
            case PERF_RECORD_FORK:
                return ForkRecord.decode(r);
            case PERF_RECORD_LOST:
                return LostRecord.decode(r);
            case PERF_RECORD_THROTTLE:
            case PERF_RECORD_UNTHROTTLE:
                return ThrottleRecord.decode(r);
            case PERF_RECORD_READ:
                return ReadRecord.decode(r);
            case PERF_RECORD_AUX:
                return AuxRecord.decode(r);
            case PERF_RECORD_ITRACE_START:
                return ItraceStartRecord.decode(r);
            case PERF_RECORD_LOST_SAMPLES:
                return LostSamplesRecord.decode(r);
            case PERF_RECORD_SWITCH:
            case PERF_RECORD_SWITCH_CPU_WIDE:
                return SwitchRecord.decode(r);
            case PERF_RECORD_NAMESPACES:
                return NamespacesRecord.decode(r);
            case PERF_RECORD_KSYMBOL:
                return KsymbolRecord.decode(r);
            case PERF_RECORD_BPF_EVENT:
                return BpfEventRecord.decode(r);
            case PERF_RECORD_CGROUP:
                return CgroupRecord.decode(r);
            case PERF_RECORD_TEXT_POKE:
                return TextPokeRecord.decode(r);
            case PERF_RECORD_AUX_OUTPUT_HW_ID:
                return AuxOutputHwIdRecord.decode(r);
            case PERF_RECORD_HEADER_ATTR:
                return HeaderAttrRecord.decode(r);
            case PERF_RECORD_HEADER_EVENT_TYPE:
                return EventTypeRecord.decode(r);
            case PERF_RECORD_HEADER_TRACING_DATA:
                return TracingDataRecord.decode(r);
            case PERF_RECORD_HEADER_BUILD_ID:
                return BuildIdRecord.decode(r);
            case PERF_RECORD_FINISHED_ROUND:
                return new FinishedRoundRecord(offset, r.misc, r.size);
            case PERF_RECORD_FINISHED_INIT:
                return new FinishedInitRecord(offset, r.misc, r.size);
            case PERF_RECORD_ID_INDEX:
                return IdIndexRecord.decode(r);
            case PERF_RECORD_AUXTRACE_INFO:
                return AuxtraceInfoRecord.decode(r);
            case PERF_RECORD_AUXTRACE:
                return AuxtraceRecord.decode(r);
            case PERF_RECORD_AUXTRACE_ERROR:
                return AuxtraceErrorRecord.decode(r);
            case PERF_RECORD_THREAD_MAP:
                return ThreadMapRecord.decode(r);
            case PERF_RECORD_CPU_MAP:
                return CpuMapRecord.decode(r);
            case PERF_RECORD_STAT_CONFIG:
                return StatConfigRecord.decode(r);
            case PERF_RECORD_STAT:
                return StatRecord.decode(r);
            case PERF_RECORD_STAT_ROUND:
                return StatRoundRecord.decode(r);
            case PERF_RECORD_EVENT_UPDATE:
                return EventUpdateRecord.decode(r);
            case PERF_RECORD_TIME_CONV:
                return TimeConvRecord.decode(r);
            case PERF_RECORD_HEADER_FEATURE:
                return HeaderFeatureRecord.decode(r);
            case PERF_RECORD_COMPRESSED:
            case PERF_RECORD_COMPRESSED2:
                return CompressedRecord.decode(r);
            default:
                return new UnknownRecord(offset, r.type, r.misc, r.size);
        }
    }

    /**
     * Decodes the PERF_RECORD_SAMPLE at {@code pos} into {@code v} without allocating (the
     * callchain stays in {@code src}); the caller has checked that its header.size bytes are in
     * {@code src}. Throws {@link dev.jperf.format.PerfDataException} exactly where {@link #decode} would.
     */
    public void decodeSample(ByteSource src, long pos, long offset, SampleView v) {
        v.decode(name, events, src, pos, offset);
    }
}
