package dev.jperf.report.symbol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jperf.report.CorpusFixture;
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

    /** The table built from names as byte ranges (file in address order) equals the general one. */
    @Test
    void addressOrderedFilesGiveTheSameTablesAsAnyOther() throws IOException {
        String text = Files.readString(CorpusFixture.kallsyms(), StandardCharsets.ISO_8859_1);
        // duplicates at one address and a module boundary
        text += """
                ffffffffc1000000 t __dup_local	[zz]
                ffffffffc1000000 T dup_global	[zz]
                ffffffffc1000000 W dup_weak	[zz]
                ffffffffc1000100 t _b	[zz]
                ffffffffc1000100 t __a	[zz]
                ffffffffc1000200 t longer_name	[zz]
                ffffffffc1000200 t short	[zz]
                """;
        Kallsyms ordered = parse(text);
        java.util.List<String> lines = new java.util.ArrayList<>(java.util.Arrays.asList(text.split("\n")));
        // a line whose address no other line has, moved last: out of address order, same symbols
        int u = 1000;
        while (addr(lines.get(u)).equals(addr(lines.get(u - 1))) || addr(lines.get(u)).equals(addr(lines.get(u + 1)))) {
            u++;
        }
        lines.add(lines.remove(u));
        Kallsyms shuffled = parse(String.join("\n", lines) + "\n");
        assertTables(shuffled.kernel(), ordered.kernel());
        assertEquals(shuffled.modules().keySet(), ordered.modules().keySet());
        for (String m : ordered.modules().keySet()) {
            assertTables(shuffled.modules().get(m), ordered.modules().get(m));
        }
        // ends are fixed first, so the last name at an address is the only one with a length and wins
        assertEquals("dup_weak", ordered.modules().get("[zz]").find(0xffffffffc1000000L).name());
        assertEquals("__a", ordered.modules().get("[zz]").find(0xffffffffc1000100L).name());
        assertEquals("short", ordered.modules().get("[zz]").find(0xffffffffc1000200L).name());
        assertEquals(shuffled.refSymbol("_text"), ordered.refSymbol("_text"));
    }

    private static String addr(String line) {
        return line.substring(0, Math.max(0, line.indexOf(' ')));
    }

    private static void assertTables(SymbolTable expected, SymbolTable actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.start(i), actual.start(i));
            assertEquals(expected.end(i), actual.end(i));
            Symbol e = expected.find(expected.start(i));
            Symbol a = actual.find(actual.start(i));
            assertEquals(e.toString(), a.toString());
            assertEquals(e.type(), a.type());
            assertEquals(e.binding(), a.binding());
            assertTrue(a == actual.find(actual.start(i)), "one Symbol per table entry");
        }
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

    /**
     * Every address 0 (/proc/kallsyms as a user reads it) names nothing; one symbol at 0 among
     * others (an old kernel's per-CPU data) is a symbol like any.
     */
    @Test
    void allAddressesZeroIsRefusedOneZeroIsKept() throws IOException {
        IOException e = assertThrows(IOException.class, () -> parse("""
                0000000000000000 T _text
                0000000000000000 T startup_64
                0000000000000000 t mod_fn	[ext4]
                """));
        assertTrue(e.getMessage().endsWith(": every address is 0 (as the kernel shows them to a user it hides them from:"
                + " kptr_restrict, perf_event_paranoid): kernel symbols unresolved"), e.getMessage());
        Kallsyms k = parse("""
                0000000000000000 D __per_cpu_start
                ffffffff81000000 T _text
                """);
        assertEquals("__per_cpu_start", k.kernel().find(0x10).name());
        assertEquals(0xffffffff81000000L, k.refSymbol("_text"));
        assertEquals(0, parse("\n").kernel().size());
    }
}
