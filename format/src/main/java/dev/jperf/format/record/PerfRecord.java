package dev.jperf.format.record;

/**
 * One record of a perf.data record stream: the {@code perf_event_header} (type, misc, size) and
 * the decoded body, one class per type. {@link #offset()} is where the record starts in the file
 * or stream (for records that came out of a COMPRESSED record: their offset in the decompressed
 * stream). Kernel record types carry their {@link SampleId} trailer.
 */
public sealed interface PerfRecord permits SampleRecord, MmapRecord, Mmap2Record, CommRecord, ExitRecord,
        ForkRecord, LostRecord, LostSamplesRecord, ThrottleRecord, ReadRecord, AuxRecord, ItraceStartRecord,
        SwitchRecord, NamespacesRecord, KsymbolRecord, BpfEventRecord, CgroupRecord, TextPokeRecord,
        AuxOutputHwIdRecord, HeaderAttrRecord, EventTypeRecord, TracingDataRecord, BuildIdRecord,
        FinishedRoundRecord, FinishedInitRecord, IdIndexRecord, AuxtraceInfoRecord, AuxtraceRecord,
        AuxtraceErrorRecord, ThreadMapRecord, CpuMapRecord, StatConfigRecord, StatRecord, StatRoundRecord,
        EventUpdateRecord, TimeConvRecord, HeaderFeatureRecord, CompressedRecord, UnknownRecord {

    int PERF_RECORD_MISC_CPUMODE_MASK = 0x7;
    int PERF_RECORD_MISC_CPUMODE_UNKNOWN = 0;
    int PERF_RECORD_MISC_KERNEL = 1;
    int PERF_RECORD_MISC_USER = 2;
    int PERF_RECORD_MISC_HYPERVISOR = 3;
    int PERF_RECORD_MISC_GUEST_KERNEL = 4;
    int PERF_RECORD_MISC_GUEST_USER = 5;
    int PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT = 1 << 12;
    int PERF_RECORD_MISC_MMAP_DATA = 1 << 13;
    int PERF_RECORD_MISC_COMM_EXEC = 1 << 13;
    int PERF_RECORD_MISC_FORK_EXEC = 1 << 13;
    int PERF_RECORD_MISC_SWITCH_OUT = 1 << 13;
    int PERF_RECORD_MISC_EXACT_IP = 1 << 14;
    int PERF_RECORD_MISC_SWITCH_OUT_PREEMPT = 1 << 14;
    int PERF_RECORD_MISC_MMAP_BUILD_ID = 1 << 14;
    int PERF_RECORD_MISC_EXT_RESERVED = 1 << 15;
    /** HEADER_BUILD_ID records (perf's own, tools/lib/perf): the build id's size is in its byte 20. */
    int PERF_RECORD_MISC_BUILD_ID_SIZE = 1 << 15;

    /** Where the record starts (file offset, or offset in the decompressed stream). */
    long offset();

    /** PERF_RECORD_* type (see {@link RecordType}). */
    int type();

    int misc();

    /** header.size: the record's size in bytes, header included (payloads that follow excluded). */
    int size();

    /** The sample_id trailer and event of a kernel record; {@link SampleId#NONE} for the others. */
    default SampleId sampleId() {
        return SampleId.NONE;
    }

    /** {@code misc & PERF_RECORD_MISC_CPUMODE_MASK}. */
    default int cpumode() {
        return misc() & PERF_RECORD_MISC_CPUMODE_MASK;
    }
}
