package dev.jperf.format.record;

import static dev.jperf.format.header.PerfEventAttr.*;

import dev.jperf.format.header.EventDesc;
import dev.jperf.format.io.ByteSource;
import java.util.Objects;

/**
 * One PERF_RECORD_SAMPLE seen in place, for readers that go through millions of them (report):
 * the fields report uses, decoded by {@link RecordDecoder#decodeSample} into this reusable object,
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

    /**
     * Decodes the PERF_RECORD_SAMPLE at {@code pos} into this view without allocating (the
     * callchain stays in {@code src}); the caller has checked that its header.size bytes are in
     * {@code src}. Throws {@link dev.jperf.format.PerfDataException} exactly where the full
     * decoder would ({@code name} names the input).
     */
    void decode(String name, EventRegistry events, ByteSource src, long pos, long offset) {
        int type = RecordType.PERF_RECORD_SAMPLE;
        int misc = src.u16(pos + 4);
        int size = src.u16(pos + 6);
        long end = pos + size;
        EventDesc ev = events.sampleEvent(name, src, pos, end);
        SampleLayout l = events.layout(ev.index());
        long st = l.sampleType();
        if (l.hasVariableFieldsBesidesCallchain()) {
            // fields beyond the callchain: the full decoder says whether the record is sound
            SampleRecord.decode(name, events, src, pos, offset);
        }
        long p = pos + 8;
        if (8L + l.fixedSize() > size) {
            throw RecordInput.bad(name, src, pos, type, "too short (needs " + (8L + l.fixedSize()) + " bytes)");
        }
        this.event = ev;
        this.offset = offset;
        this.misc = misc;
        this.size = size;
        this.source = src;
        this.position = pos;
        this.id = l.idAt() < 0 ? -1 : src.u64(pos + l.idAt());
        this.ip = l.ipAt() < 0 ? -1 : src.u64(pos + l.ipAt());
        this.pid = l.tidAt() < 0 ? -1 : src.s32(pos + l.tidAt());
        this.tid = l.tidAt() < 0 ? -1 : src.s32(pos + l.tidAt() + 4);
        this.time = l.timeAt() < 0 ? -1 : src.u64(pos + l.timeAt());
        this.cpu = l.cpuAt() < 0 ? -1 : src.s32(pos + l.cpuAt());
        this.period = l.periodAt() < 0 ? events.fixedPeriod(ev.index()) : src.u64(pos + l.periodAt());
        this.callchainNr = -1;
        p += l.fixedSize();
        if ((st & PERF_SAMPLE_CALLCHAIN) != 0) {
            if ((st & PERF_SAMPLE_READ) != 0) {
                RecordInput r = new RecordInput(name, events, src, pos, offset);
                r.seek(p - pos);
                ReadValues.decode(r, l.readFormat(), size);
                p = pos + r.at();
            }
            if (p + 8 > end) {
                throw RecordInput.bad(name, src, pos, type, "too short (needs " + (p + 8 - pos) + " bytes)");
            }
            long nr = src.u64(p);
            if (nr < 0 || nr > (end - p - 8) / 8) {
                throw RecordInput.bad(name, src, pos, type, "callchain nr " + Long.toUnsignedString(nr) + " does not fit");
            }
            this.callchainAt = p + 8;
            this.callchainNr = (int) nr;
        }
    }
}
