package dev.jperf.format.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CallchainMarkerTest {
    @Test
    void markersSwitchTheCpumodeOfWhatFollows() {
        assertEquals(PerfRecord.PERF_RECORD_MISC_HYPERVISOR, SampleRecord.cpumodeAfter(SampleRecord.PERF_CONTEXT_HV));
        assertEquals(PerfRecord.PERF_RECORD_MISC_KERNEL, SampleRecord.cpumodeAfter(SampleRecord.PERF_CONTEXT_KERNEL));
        assertEquals(PerfRecord.PERF_RECORD_MISC_USER, SampleRecord.cpumodeAfter(SampleRecord.PERF_CONTEXT_USER));
        assertEquals(-1, SampleRecord.cpumodeAfter(SampleRecord.PERF_CONTEXT_GUEST_KERNEL));
        assertTrue(SampleRecord.isContextMarker(SampleRecord.PERF_CONTEXT_MAX));
        assertFalse(SampleRecord.isContextMarker(0xffffffff81000000L));
    }
}
