package dev.jperf.recorder;

import static dev.jperf.nativeshim.PerfEventAttrLayout.*;

/**
 * Where the recorder finds a SAMPLE's fields and how long a record's sample_id trailer is, for a
 * sample_type (perf-data-format.md §7-8): the fields the copy path reads (time, ip, pid) precede
 * every variable-length one, so their offsets are counts of the fixed fields before them.
 */
final class SampleLayout {
    private SampleLayout() {
    }

    /** Bytes of the sample_id trailer for these sample_type bits (perf-data-format.md §8). */
    static int trailerSize(long sampleType) {
        long bits = PERF_SAMPLE_TID
                | PERF_SAMPLE_TIME
                | PERF_SAMPLE_ID
                | PERF_SAMPLE_STREAM_ID
                | PERF_SAMPLE_CPU
                | PERF_SAMPLE_IDENTIFIER;
        return 8 * Long.bitCount(sampleType & bits);
    }

    /** Offset of a SAMPLE's ip from the record start, or -1 without PERF_SAMPLE_IP. */
    static int ipOffset(long sampleType) {
        return (sampleType & PERF_SAMPLE_IP) == 0 ? -1 : 8 + 8 * Long.bitCount(sampleType & PERF_SAMPLE_IDENTIFIER);
    }

    /** Offset of a SAMPLE's pid, or -1 without PERF_SAMPLE_TID. */
    static int pidOffset(long sampleType) {
        if ((sampleType & PERF_SAMPLE_TID) == 0) {
            return -1;
        }
        return 8 + 8 * Long.bitCount(sampleType & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP));
    }

    /** Offset of a SAMPLE's time field from the record start, or -1 without PERF_SAMPLE_TIME. */
    static int timeOffset(long sampleType) {
        long t = PERF_SAMPLE_TIME;
        if ((sampleType & t) == 0) {
            return -1;
        }
        long before = PERF_SAMPLE_IDENTIFIER
                | PERF_SAMPLE_IP
                | PERF_SAMPLE_TID;
        return 8 + 8 * Long.bitCount(sampleType & before);
    }
}
