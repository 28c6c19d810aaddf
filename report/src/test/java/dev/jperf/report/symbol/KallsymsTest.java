package dev.jperf.report.symbol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KallsymsTest {
    @TempDir
    Path dir;

    private Kallsyms parse(String text) throws IOException {
        Path f = dir.resolve("kallsyms");
        Files.writeString(f, text, StandardCharsets.ISO_8859_1);
        return Kallsyms.parse(f);
    }

    @Test
    void keepsTextWeakDataAndBssApartByModule() throws IOException {
        Kallsyms k = parse("""
                ffffffff81000000 T _text
                ffffffff81000000 T startup_64
                ffffffff81001000 t local_fn
                ffffffff81002000 W weak_fn
                ffffffff81003000 r skipped_rodata
                ffffffff81004000 A skipped_abs
                ffffffff81005000 T $x.dollar
                ffffffff82000000 D data_obj
                ffffffff82001000 b bss_obj

                ffffffffc0000000 t mod_fn\t[ext4]
                ffffffffc0001000 T mod_fn2\t[ext4]\r
                ffffffffc0100000 t other_fn\t[xfs]
                """);
        assertEquals(0xffffffff81000000L, k.refSymbol("_text"));
        assertNull(k.refSymbol("_stext"));
        assertEquals("local_fn", k.kernel().find(0xffffffff81001010L).name());
        assertEquals("weak_fn", k.kernel().find(0xffffffff81002000L).name());
        assertTrue(k.kernel().symbols().stream().noneMatch(s -> s.name().startsWith("skipped") || s.name().startsWith("$")));
        assertEquals(2, k.modules().size());
        assertEquals("mod_fn2", k.modules().get("[ext4]").find(0xffffffffc0001000L).name());
        assertEquals("other_fn", k.modules().get("[xfs]").find(0xffffffffc0100000L).name());
    }

    @Test
    void badLinesSayWhere() {
        IOException e = assertThrows(IOException.class, () -> parse("ffffffff81000000 T ok\nzz T bad\n"));
        assertTrue(e.getMessage().endsWith(":2: bad address"), e.getMessage());
        e = assertThrows(IOException.class, () -> parse("ffffffff81000000T\n"));
        assertTrue(e.getMessage().endsWith(":1: bad address") || e.getMessage().endsWith(":1: not a kallsyms line"), e.getMessage());
        e = assertThrows(IOException.class, () -> parse("ffffffff81000000 T\n"));
        assertTrue(e.getMessage().endsWith(":1: not a kallsyms line"), e.getMessage());
        e = assertThrows(IOException.class, () -> parse("1ffffffff81000000 T toolong\n"));
        assertTrue(e.getMessage().endsWith(":1: bad address"), e.getMessage());
    }
}
