package dev.jperf.recorder.stat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** The readings the bperf follower and the BPF program profiler sum: struct bpf_perf_event_value per CPU. */
class CounterValuesTest {
    @Test
    void perCpuReadingsSummed() {
        ByteBuffer b = ByteBuffer.allocate(3 * BperfLeader.READING_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(1).putLong(10).putLong(5);
        b.putLong(2).putLong(20).putLong(20);
        b.putLong(4).putLong(40).putLong(40);
        assertEquals(new CounterValues(7, 70, 65), CounterValues.sumPerCpu(b.array(), 3));
        assertEquals(new CounterValues(3, 30, 25), CounterValues.sumPerCpu(b.array(), 2), "the slots asked for only");
        assertEquals(CounterValues.ZERO, CounterValues.sumPerCpu(new byte[0], 0));
    }
}
