package dev.jperf.format.record;

/** PERF_RECORD_BPF_EVENT: a BPF program was loaded or unloaded (program id and 8-byte tag). */
public record BpfEventRecord(long offset, int misc, int size, int bpfEventType, int flags, int id, byte[] tag, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_BPF_EVENT;
    }
    public static final int PERF_BPF_EVENT_PROG_LOAD = 1;
    public static final int PERF_BPF_EVENT_PROG_UNLOAD = 2;

    public BpfEventRecord {
        tag = tag.clone();
    }

    @Override
    public byte[] tag() {
        return tag.clone();
    }

    /** The tag as 16 hex digits, as bpftool and perf print it. */
    public String tagHex() {
        return java.util.HexFormat.of().formatHex(tag);
    }

    static BpfEventRecord decode(RecordInput r) {
        r.need(24);
        SampleId id = r.trailerAt(24);
        return new BpfEventRecord(r.offset, r.misc, r.size, r.u16(8), r.u16(10), r.s32(12), r.bytes(16, 8), id);
    }
}
