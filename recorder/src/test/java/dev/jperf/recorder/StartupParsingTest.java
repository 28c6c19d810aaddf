package dev.jperf.recorder;

import dev.jperf.format.io.ProcFs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * The hand-written parsers a recording's start uses instead of regexes and streams agree with
 * what they replaced.
 */
class StartupParsingTest {
    @Test
    void collapseBlanksIsReplaceAllOfWhiteSpaceRuns() {
        for (String s : new String[] {"Intel(R)  Xeon(R)\tCPU   @ 2.10GHz", " lead", "trail \t", "", "  ", "a\f\r\n\u000Bb",
                "no-blank", "x\u00a0y"}) {
            assertEquals(s.replaceAll("\\s+", " "), HeaderFeatures.collapseBlanks(s), s);
        }
    }

    @Test
    void numberedNamesAsPerfScansThem() {
        assertEquals(12, SysfsFeatures.numbered("node12", "node"));
        assertEquals(3, SysfsFeatures.numbered("memory3x", "memory"));
        assertEquals(-1, SysfsFeatures.numbered("node", "node"));
        assertEquals(-1, SysfsFeatures.numbered("nodes", "node"));
        assertEquals(-1, SysfsFeatures.numbered("memory_failure", "memory"));
        assertEquals(-1, SysfsFeatures.numbered("power", "node"));
    }

    @Test
    void processDirectoriesAreAllDigits() {
        assertTrue(ProcSynthesizer.isNumber("1"));
        assertTrue(ProcSynthesizer.isNumber("40213"));
        assertFalse(ProcSynthesizer.isNumber(""));
        assertFalse(ProcSynthesizer.isNumber("self"));
        assertFalse(ProcSynthesizer.isNumber("12a"));
        assertFalse(ProcSynthesizer.isNumber("\u0661")); // a digit to Character.isDigit, not to /proc
    }

    @Test
    void procTextIsStripped() {
        for (String t : new String[] {"Name:\tkworker/0:1-events\n", "  x y \t", "", "\u001f\u0001a\u0001", "\u00e9t\u00e9 "}) {
            byte[] b = t.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
            assertEquals(t.strip(), ProcFs.text(b, 0, b.length), t);
        }
        byte[] lines = "Name:\tbash\nTgid:\t12\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        assertEquals(10, ProcFile.lineEnd(lines, 0, lines.length));
        assertTrue(ProcFile.startsWith(lines, 11, 20, "Tgid:"));
        assertFalse(ProcFile.startsWith(lines, 11, 13, "Tgid:"));
    }

    @Test
    void hexReadsAsParseUnsignedLong() {
        for (String s : new String[] {"0", "7f3a2c000000", "ffffffffff600000", "ffffffffffffffff", "ABCdef", "00000000000000001"}) {
            byte[] b = ("[" + s + "]").getBytes(StandardCharsets.ISO_8859_1);
            if (s.length() <= 16) {
                assertEquals(Long.parseUnsignedLong(s, 16), ProcFile.hex(b, 1, b.length - 1), s);
            } else {
                assertThrows(NumberFormatException.class, () -> ProcFile.hex(b, 1, b.length - 1), s);
            }
        }
        for (String s : new String[] {"", "0x10", "12 ", "g"}) {
            byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
            assertThrows(NumberFormatException.class, () -> ProcFile.hex(b, 0, b.length), s);
        }
    }
}
