package dev.jperf.format.record;

/** PERF_RECORD_TEXT_POKE: kernel text was modified at {@code addr}. */
public record TextPokeRecord(long offset, int misc, int size, long addr, byte[] oldBytes, byte[] newBytes, SampleId sampleId) implements PerfRecord {
    @Override
    public int type() {
        return RecordType.PERF_RECORD_TEXT_POKE;
    }
    public TextPokeRecord {
        oldBytes = oldBytes.clone();
        newBytes = newBytes.clone();
    }

    @Override
    public byte[] oldBytes() {
        return oldBytes.clone();
    }

    @Override
    public byte[] newBytes() {
        return newBytes.clone();
    }

    static TextPokeRecord decode(RecordInput r) {
        SampleId id = r.trailer();
        r.needBody(20);
        int oldLen = r.u16(16);
        int newLen = r.u16(18);
        r.needBody(20L + oldLen + newLen);
        return new TextPokeRecord(r.offset, r.misc, r.size, r.u64(8), r.bytes(20, oldLen), r.bytes(20 + oldLen, newLen), id);
    }
}
