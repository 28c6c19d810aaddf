package dev.jperf.format.record;

import static dev.jperf.format.header.PerfEventAttr.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Where fields sit for a sample_type, against the kernel's order written out (perf_output_sample:
 * IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD; __perf_event_header__init_id's
 * trailer: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER) and perf's evsel id_pos / is_pos.
 */
class SampleLayoutTest {
    @Test
    void recorderEventLayout() {
        // jperf record's sampling events
        SampleLayout l = SampleLayout.of(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME
                | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN);
        assertEquals(16, l.offset(PERF_SAMPLE_IP));
        assertEquals(24, l.offset(PERF_SAMPLE_TID));
        assertEquals(32, l.offset(PERF_SAMPLE_TIME));
        assertEquals(40, l.offset(PERF_SAMPLE_CPU));
        assertEquals(48, l.offset(PERF_SAMPLE_PERIOD));
        assertEquals(-1, l.offset(PERF_SAMPLE_ADDR));
        assertEquals(48, l.fixedSize());
        // trailer: tid, time, cpu, identifier
        assertEquals(32, l.sampleIdSize());
        assertEquals(0, l.idPos());
        assertEquals(1, l.isPos());
        assertEquals(true, l.hasVariableFields());
        assertEquals(false, l.hasVariableFieldsBesidesCallchain());
    }

    @Test
    void streamIdComesBeforeCpu() {
        long st = PERF_SAMPLE_IP | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_TIME;
        SampleLayout l = SampleLayout.of(st);
        assertEquals(8, l.offset(PERF_SAMPLE_IP));
        assertEquals(16, l.offset(PERF_SAMPLE_TIME));
        assertEquals(24, l.offset(PERF_SAMPLE_ID));
        assertEquals(32, l.offset(PERF_SAMPLE_STREAM_ID));
        assertEquals(40, l.offset(PERF_SAMPLE_CPU));
        // ID without IDENTIFIER: its index among the u64s after the header (ip, time before it)
        assertEquals(2, l.idPos());
        // counted back from the trailer's end: cpu, stream_id, then id
        assertEquals(3, l.isPos());
        assertEquals(32, l.sampleIdSize());
        assertEquals(false, l.hasVariableFields());
    }

    @Test
    void noIdNoPosition() {
        SampleLayout l = SampleLayout.of(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_RAW);
        assertEquals(-1, l.idPos());
        assertEquals(-1, l.isPos());
        assertEquals(8, l.sampleIdSize());
        assertEquals(16, l.fixedSize());
        assertEquals(true, l.hasVariableFieldsBesidesCallchain());
    }
}
