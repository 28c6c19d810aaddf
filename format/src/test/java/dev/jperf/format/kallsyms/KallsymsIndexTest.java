package dev.jperf.format.kallsyms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KallsymsIndexTest {
    @TempDir
    Path dir;

    private static KallsymsIndex of(String text) {
        return KallsymsIndex.of(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void namesFirstInFileOrderAndTheKernelsOwn() throws IOException {
        Path f = dir.resolve("kallsyms");
        Files.writeString(f, "ffffffff81000000 T _text\n"
                + "ffffffff81001000 T bpf_prog_active\n"
                + "ffffffff81002000 t bpf_prog_active\n"
                + "ffffffffc0001000 t ext4_only\t[ext4]\n"
                + "0000000000000000 T hidden\n"
                + "ffffffff81003000 T __x64_sys_bpf\n");
        KallsymsIndex k = KallsymsIndex.read(f);
        assertEquals(6, k.size());
        assertEquals(0xffffffff81001000L, k.addressOf("bpf_prog_active"), "the first of a name");
        assertEquals(0xffffffffc0001000L, k.addressOf("ext4_only"), "a module's");
        assertEquals("[ext4]", k.module(k.indexOf("ext4_only")));
        assertNull(k.module(k.indexOf("_text")));
        assertEquals(0, k.addressOf("hidden"));
        assertEquals(0, k.addressOf("absent"));
        assertEquals(-1, k.indexOf("bpf_prog_activ"), "a prefix is not the name");
        assertTrue(k.kernelIndexOf("__x64_sys_bpf") >= 0);
        assertEquals(-1, k.kernelIndexOf("ext4_only"), "a module's is not the kernel's");
        assertEquals('t', k.type(2));
        assertFalse(k.hidden());
        Files.delete(f);
        assertEquals(0, KallsymsIndex.readOrEmpty(f).size(), "unreadable: nothing found");
    }

    /** Names found through the hash index are the names a scan finds, on many symbols. */
    @Test
    void nameIndexAgreesWithAScan() {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            s.append(String.format("%016x t f%d\n", 0xffffffff81000000L + 16L * i, i % 3000));
        }
        KallsymsIndex k = of(s.toString());
        for (int i = 0; i < 3000; i += 7) {
            assertEquals(i, k.indexOf("f" + i));
        }
        assertEquals(-1, k.indexOf("f3000"));
    }

    /** A file out of address order gets a stable order; floor finds the symbol an address falls in. */
    @Test
    void addressOrderAndFloor() {
        KallsymsIndex k = of("ffffffff81000200 T c\n"
                + "ffffffff81000100 T a\n"
                + "ffffffffc0000000 t m\t[mod]\n"
                + "ffffffff81000100 T b\n"
                + "0000000000001000 A percpu\n");
        assertFalse(k.inAddressOrder());
        List<String> order = new ArrayList<>();
        for (int i = 0; i < k.size(); i++) {
            order.add(k.name(k.byAddress(i)));
        }
        assertEquals(List.of("percpu", "a", "b", "c", "m"), order, "unsigned, stable");
        assertEquals("b", k.name(k.floor(0xffffffff810001ffL)));
        assertEquals("c", k.name(k.floor(0xffffffff81000200L)));
        assertEquals("m", k.name(k.floor(-1L)));
        assertEquals(-1, k.floor(0xfffL));
    }

    @Test
    void malformedLinesAreSkippedAndTheFirstNamed() {
        KallsymsIndex k = of("ffffffff81000000 T _text\n\nzz T bad\nffffffff81000100 T ok\nnot a line at all\n");
        assertEquals(2, k.size());
        assertEquals(3, k.firstMalformed());
        assertEquals("bad address", k.malformedReason());
        KallsymsIndex k2 = of("ffffffff81000000 T _text\nffffffff81000100\n");
        assertEquals(2, k2.firstMalformed());
        assertEquals("not a kallsyms line", k2.malformedReason());
        assertEquals(0, of("ffffffff81000000 T _text").firstMalformed(), "a last line without a line break");
        assertTrue(of("0000000000000000 T _text\n0000000000000000 t x\n").hidden());
        assertFalse(of("").hidden(), "no symbols is not hidden addresses");
    }

    /** The head read stops at the line asked for, across the growth of its buffer; without it, the whole file. */
    @Test
    void headReadStopsAtTheKernelSymbol() throws IOException {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 400; i++) {
            s.append(String.format("%016x A percpu_%d\n", 0x1000L + 8 * i, i));
        }
        s.append("ffffffffc0000000 t _text\t[mod]\n");
        s.append("ffffffff81000000 T _text\n");
        for (int i = 0; i < 400; i++) {
            s.append(String.format("%016x t f_%d\n", 0xffffffff81000010L + 16L * i, i));
        }
        Path f = dir.resolve("kallsyms");
        Files.writeString(f, s, StandardCharsets.ISO_8859_1);
        KallsymsIndex head = KallsymsIndex.readUntil(f, "_text");
        assertFalse(head.complete());
        assertEquals(402, head.size(), "up to the kernel's _text, not the module's");
        assertEquals(0xffffffff81000000L, head.address(head.kernelIndexOf("_text")));
        KallsymsIndex whole = KallsymsIndex.readUntil(f, "_absent");
        assertTrue(whole.complete());
        assertEquals(802, whole.size());
        assertEquals(KallsymsIndex.read(f).size(), whole.size());
    }

    @Test
    void readsThisMachinesKallsymsAsItsLinesSay() throws IOException {
        Path f = Path.of("/proc/kallsyms");
        assumeTrue(Files.isReadable(f), "no /proc/kallsyms");
        byte[] b = Files.readAllBytes(f);
        KallsymsIndex k = KallsymsIndex.of(b);
        String[] lines = new String(b, StandardCharsets.ISO_8859_1).split("\n");
        assertEquals(lines.length, k.size());
        assertEquals(0, k.firstMalformed());
        for (int i = 0; i < lines.length; i += 997) {
            String[] f3 = lines[i].split("[ \t]");
            assertEquals(Long.parseUnsignedLong(f3[0], 16), k.address(i), lines[i]);
            assertEquals(f3[2], k.name(i), lines[i]);
            assertEquals(f3.length > 3 ? f3[3] : null, k.module(i), lines[i]);
        }
    }
}
