package dev.jperf.report.script;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The hand-made printf conversions against String.format, including the edges perf output meets. */
class LineWriterTest {
    private static String out(java.util.function.Consumer<LineWriter> body) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        LineWriter w = new LineWriter(b);
        body.accept(w);
        w.flush();
        return b.toString(StandardCharsets.UTF_8);
    }

    @Test
    void decimalsMatchPrintf() {
        long[] values = {0, 1, 9, 10, 99, 100, 12345, 99999, 100000, 2147483646, 2147483647, 2147483648L,
            9999999999L, Long.MAX_VALUE, -1, -42, -2147483648L, Long.MIN_VALUE};
        for (long v : values) {
            assertEquals(String.format("%5d", v), out(w -> w.decRight(v, 5)), "%5d " + v);
            assertEquals(String.format("%-5d|", v), out(w -> w.decLeft(v, 5).ch('|')), "%-5d " + v);
            assertEquals(String.format("%10d", v), out(w -> w.decRight(v, 10)), "%10d " + v);
            assertEquals(String.format("%03d", v), out(w -> w.decZero(v, 3)), "%03d " + v);
            assertEquals(Long.toUnsignedString(v), out(w -> w.udec(v)), "%lu " + v);
            assertEquals(String.format("%16x", v), out(w -> w.hexRight(v, 16)), "%16lx " + v);
            assertEquals(v == 0 ? "0" : String.format("%#x", v), out(w -> w.hexAlt(v)), "%#lx " + v);
        }
    }

    @Test
    void stringsPadByBytesAsPrintfDoes() {
        assertEquals(String.format("%16s ", "perf"), out(w -> w.strRight("perf", 16).ch(' ')));
        // "é" is two bytes in UTF-8: printf("%16s") pads to 16 bytes, not 16 characters
        assertEquals(" ".repeat(11) + "caf\u00e9 ", out(w -> w.strRight("caf\u00e9", 16).ch(' ')));
        assertEquals("a-very-long-command-name", out(w -> w.strRight("a-very-long-command-name", 16)));
    }

    @Test
    void largeWritesCrossTheBufferAndMarksNoticeFlushes() {
        String big = "x".repeat(200_000);
        assertEquals(big + "y", out(w -> w.str(big).ch('y')));
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        LineWriter w = new LineWriter(b);
        long m = w.mark();
        w.str("abc");
        assertArrayEquals("abc".getBytes(StandardCharsets.US_ASCII), w.since(m));
        long m2 = w.mark();
        w.str(big);
        assertNull(w.since(m2), "the buffer was flushed in between");
    }
}
