package dev.jperf.recorder.stat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code bpf top --json}'s line, byte for byte: the layout (", " and ": "), the number formats and
 * plain JSON escapes in a program's name (BpfTopTest reads the same line from live programs).
 */
class BpfTopJsonTest {
    @Test
    void oneLinePerInterval() {
        List<BpfTop.Line> lines = List.of(
                new BpfTop.Line(new BpfProgram(7, 17, "n\"a\\m\u0001e"), 1000, 250_000, 0.5),
                new BpfTop.Line(new BpfProgram(12, 1, "x"), 0, 0, 0.5));
        assertEquals("{\"time\": 1700000000.123, \"interval_s\": 0.500000, \"programs\": ["
                + "{\"id\": 7, \"type\": \"raw_tracepoint\", \"name\": \"n\\\"a\\\\m\\u0001e\", \"run_cnt\": 1000, "
                + "\"run_time_ns\": 250000, \"runs_per_sec\": 2000.000, \"avg_ns_per_run\": 250.000, \"cpu_percent\": 0.0500}, "
                + "{\"id\": 12, \"type\": \"socket_filter\", \"name\": \"x\", \"run_cnt\": 0, \"run_time_ns\": 0, "
                + "\"runs_per_sec\": 0.000, \"avg_ns_per_run\": 0.000, \"cpu_percent\": 0.0000}]}",
                BpfTop.json(lines, 0.5, 1_700_000_000.1234));
    }

    @Test
    void noProgramsIsAnEmptyArray() {
        assertEquals("{\"time\": 1.000, \"interval_s\": 1.000000, \"programs\": []}", BpfTop.json(List.of(), 1, 1));
    }
}
