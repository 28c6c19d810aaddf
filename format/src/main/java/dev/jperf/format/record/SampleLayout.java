package dev.jperf.format.record;

import static dev.jperf.format.header.PerfEventAttr.*;

import dev.jperf.format.header.PerfEventAttr;

/**
 * Where the fixed fields of a PERF_RECORD_SAMPLE sit, and how long a kernel record's sample_id
 * trailer is and where its id is, for one event's sample_type (spec §8; the kernel's
 * perf_output_sample and __perf_event_header__init_id, perf's evsel id_pos / is_pos). Read and
 * written by the decoder, the event registry and the recorder alike.
 *
 * <p>A sample starts with one u64 word for each of {@link #FIXED_FIELDS} present, in the order
 * IDENTIFIER, IP, TID (pid, tid), TIME, ADDR, ID, STREAM_ID, CPU (cpu, res), PERIOD; then the
 * variable parts in the order READ, CALLCHAIN, RAW, BRANCH_STACK, REGS_USER, STACK_USER,
 * WEIGHT / WEIGHT_STRUCT, DATA_SRC, TRANSACTION, REGS_INTR, PHYS_ADDR, CGROUP, DATA_PAGE_SIZE,
 * CODE_PAGE_SIZE, AUX. The trailer (attr.sample_id_all) is one u64 for each of
 * {@link #SAMPLE_ID_FIELDS} present, in the order TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER.
 */
public final class SampleLayout {
    /** The sample_type bits of the fixed u64 words at the start of a sample, in record order. */
    private static final long[] FIXED_ORDER = {PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID,
        PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD};

    /** The fields that are one u64 each at the start of a sample. */
    public static final long FIXED_FIELDS = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID
            | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU
            | PERF_SAMPLE_PERIOD;
    /** The fields of the sample_id trailer of non-sample kernel records. */
    public static final long SAMPLE_ID_FIELDS = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID
            | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;

    private final long sampleType;
    private final long readFormat;
    private final boolean branchHwIdx;
    private final int fixedSize;
    private final int sampleIdSize;
    // where each fixed field starts, from the record's header (-1: not sampled); read per sample
    private final int ipAt;
    private final int tidAt;
    private final int timeAt;
    private final int addrAt;
    private final int idAt;
    private final int streamIdAt;
    private final int cpuAt;
    private final int periodAt;

    private SampleLayout(long sampleType, long readFormat, boolean branchHwIdx) {
        this.sampleType = sampleType;
        this.readFormat = readFormat;
        this.branchHwIdx = branchHwIdx;
        this.fixedSize = 8 * Long.bitCount(sampleType & FIXED_FIELDS);
        this.sampleIdSize = 8 * Long.bitCount(sampleType & SAMPLE_ID_FIELDS);
        this.ipAt = offset(PERF_SAMPLE_IP);
        this.tidAt = offset(PERF_SAMPLE_TID);
        this.timeAt = offset(PERF_SAMPLE_TIME);
        this.addrAt = offset(PERF_SAMPLE_ADDR);
        // perf reads IDENTIFIER, then ID over it (both hold the id)
        int id = offset(PERF_SAMPLE_ID);
        this.idAt = id >= 0 ? id : offset(PERF_SAMPLE_IDENTIFIER);
        this.streamIdAt = offset(PERF_SAMPLE_STREAM_ID);
        this.cpuAt = offset(PERF_SAMPLE_CPU);
        this.periodAt = offset(PERF_SAMPLE_PERIOD);
    }

    /** The layout of an event's samples and trailers (sample_type, read_format, branch hw_idx). */
    public static SampleLayout of(PerfEventAttr attr) {
        return new SampleLayout(attr.sampleType(), attr.readFormat(),
                (attr.branchSampleType() & PERF_SAMPLE_BRANCH_HW_INDEX) != 0);
    }

    /** The layout for a sample_type alone (no READ, no branch hw_idx): the fixed fields and the trailer. */
    public static SampleLayout of(long sampleType) {
        return new SampleLayout(sampleType, 0, false);
    }

    public long sampleType() {
        return sampleType;
    }

    public long readFormat() {
        return readFormat;
    }

    /** Whether a PERF_SAMPLE_BRANCH_STACK has hw_idx after nr (PERF_SAMPLE_BRANCH_HW_INDEX). */
    public boolean branchHwIdx() {
        return branchHwIdx;
    }

    /** Bytes of the fixed u64 words at the start of a sample (after the 8-byte header). */
    public int fixedSize() {
        return fixedSize;
    }

    /** Where PERF_SAMPLE_IP is, from the record's header; -1 when not sampled (as the other {@code *At}). */
    public int ipAt() {
        return ipAt;
    }

    /** Where PERF_SAMPLE_TID's pid is (its tid 4 bytes on). */
    public int tidAt() {
        return tidAt;
    }

    public int timeAt() {
        return timeAt;
    }

    public int addrAt() {
        return addrAt;
    }

    /** Where the sample's id is: PERF_SAMPLE_ID, else PERF_SAMPLE_IDENTIFIER. */
    public int idAt() {
        return idAt;
    }

    public int streamIdAt() {
        return streamIdAt;
    }

    /** Where PERF_SAMPLE_CPU's cpu is (its res 4 bytes on). */
    public int cpuAt() {
        return cpuAt;
    }

    public int periodAt() {
        return periodAt;
    }

    /** Whether the sample has parts after the fixed words (READ, CALLCHAIN, RAW...). */
    public boolean hasVariableFields() {
        return (sampleType & ~FIXED_FIELDS) != 0;
    }

    /** Whether the sample has variable parts other than a callchain. */
    public boolean hasVariableFieldsBesidesCallchain() {
        return (sampleType & ~FIXED_FIELDS & ~PERF_SAMPLE_CALLCHAIN) != 0;
    }

    /** Bytes of the sample_id trailer (when attr.sample_id_all). */
    public int sampleIdSize() {
        return sampleIdSize;
    }

    /**
     * Where fixed field {@code field} (one PERF_SAMPLE_* bit of {@link #FIXED_FIELDS}) starts,
     * counted from the record's header; -1 when the event does not sample it.
     */
    public int offset(long field) {
        if ((sampleType & field) == 0) {
            return -1;
        }
        int at = 8;
        for (long f : FIXED_ORDER) {
            if (f == field) {
                return at;
            }
            if ((sampleType & f) != 0) {
                at += 8;
            }
        }
        throw new IllegalArgumentException("not a fixed field of a sample: 0x" + Long.toHexString(field));
    }

    /**
     * perf's id_pos: the index of the sample id among a sample's u64 words after the header
     * (IDENTIFIER: 0, else ID's place), -1 without an id.
     */
    public int idPos() {
        if ((sampleType & PERF_SAMPLE_IDENTIFIER) != 0) {
            return 0;
        }
        if ((sampleType & PERF_SAMPLE_ID) == 0) {
            return -1;
        }
        return Long.bitCount(sampleType & (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR));
    }

    /** perf's is_pos: the id's place counted back from the end of a trailer (1 = its last u64), -1 without. */
    public int isPos() {
        if ((sampleType & PERF_SAMPLE_IDENTIFIER) != 0) {
            return 1;
        }
        if ((sampleType & PERF_SAMPLE_ID) == 0) {
            return -1;
        }
        return 1 + Long.bitCount(sampleType & (PERF_SAMPLE_CPU | PERF_SAMPLE_STREAM_ID));
    }
}
