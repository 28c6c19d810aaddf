package dev.jperf.format.kallsyms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KallsymsParserTest {
    /** One line as the parser sees it: address (or "bad"), type, name, module ("" without). */
    private static List<String> lines(KallsymsParser p) {
        List<String> out = new ArrayList<>();
        while (p.next()) {
            if (!p.wellFormed()) {
                out.add(p.blank() ? "blank" : "malformed");
                continue;
            }
            out.add((p.parseAddress() ? Long.toHexString(p.address()) : "bad") + " " + p.type() + " " + p.name()
                    + (p.hasModule() ? " in " + module(p) : ""));
        }
        return out;
    }

    private static String module(KallsymsParser p) {
        return p.moduleIs("[bpf]") ? "[bpf]" : p.moduleIs("[ext4]") ? "[ext4]" : "?";
    }

    @Test
    void kernelAndModuleLinesAndWhatIsNotALine() {
        String text = "ffffffff81000000 T _text\n"
                + "ffffffffc0001000 t ext4_fill_super\t[ext4]\r\n"
                + "ffffffffc0ffe000 t bpf_trampoline_77\t[bpf]\n"
                + "\n"
                + "0000000000000000 A fixed_percpu_data\n"
                + "xyz T notHex\n"
                + "11112222333344445 T seventeenDigits\n"
                + "ffff T\n"
                + "1 t short_address";
        List<String> got = lines(KallsymsParser.of(text.getBytes(StandardCharsets.ISO_8859_1)));
        assertEquals(List.of("ffffffff81000000 T _text", "ffffffffc0001000 t ext4_fill_super in [ext4]",
                "ffffffffc0ffe000 t bpf_trampoline_77 in [bpf]", "blank", "0 A fixed_percpu_data", "bad T notHex",
                "bad T seventeenDigits", "malformed", "1 t short_address"), got);
    }

    @Test
    void namesAndModulesAsRanges() {
        byte[] b = "ffffffffc0001000 t ext4_fill_super\t[ext4]\n".getBytes(StandardCharsets.ISO_8859_1);
        KallsymsParser p = KallsymsParser.of(b);
        assertTrue(p.next());
        assertTrue(p.nameIs("ext4_fill_super"));
        assertFalse(p.nameIs("ext4_fill_supe"));
        assertEquals("[ext4]", new String(b, p.moduleStart(), p.lineEnd() - p.moduleStart(), StandardCharsets.ISO_8859_1));
        assertEquals(1, p.lineNumber());
        assertFalse(p.next());
    }

    /** Chunks cut anywhere: the unended line is left for the next chunk, the file's last one taken at the end. */
    @Test
    void chunksGiveTheSameLinesAsTheWholeFile() {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            s.append(String.format("%016x %c sym_%d%s\n", 0xffffffff81000000L + 16L * i, i % 3 == 0 ? 'T' : 't',
                    i, i % 7 == 0 ? "\t[bpf]" : ""));
        }
        s.append("ffffffffc0ffe000 t last_line\t[bpf]");
        byte[] whole = s.toString().getBytes(StandardCharsets.ISO_8859_1);
        List<String> expected = lines(KallsymsParser.of(whole));
        assertEquals(3001, expected.size());
        for (int chunk : new int[] {64, 100, 4096, 65536}) {
            List<String> got = new ArrayList<>();
            byte[] buf = new byte[chunk];
            int filled = 0;
            int read = 0;
            while (read < whole.length) {
                int n = Math.min(buf.length - filled, whole.length - read);
                System.arraycopy(whole, read, buf, filled, n);
                read += n;
                filled += n;
                KallsymsParser p = new KallsymsParser(buf, 0, filled, false);
                got.addAll(lines(p));
                int done = p.consumed();
                System.arraycopy(buf, done, buf, 0, filled - done);
                filled -= done;
            }
            got.addAll(lines(new KallsymsParser(buf, 0, filled, true)));
            assertEquals(expected, got, "chunks of " + chunk);
        }
    }

    /** This machine's kallsyms read as the String-splitting readers read it. */
    @Test
    void readsThisMachinesKallsymsAsSplittingDoes() throws IOException {
        Path f = Path.of("/proc/kallsyms");
        assumeTrue(Files.isReadable(f), "no /proc/kallsyms");
        byte[] b = Files.readAllBytes(f);
        List<String> expected = new ArrayList<>();
        for (String line : new String(b, StandardCharsets.ISO_8859_1).split("\n")) {
            String[] t = line.split("\t", 2);
            String[] fld = t[0].split(" ");
            expected.add(fld[0] + " " + fld[1] + " " + fld[2] + (t.length > 1 ? " " + t[1] : ""));
        }
        List<String> got = new ArrayList<>();
        KallsymsParser p = KallsymsParser.of(b);
        while (p.next()) {
            assertTrue(p.wellFormed() && p.parseAddress(), "line " + p.lineNumber());
            got.add(String.format("%016x", p.address()) + " " + p.type() + " " + p.name()
                    + (p.hasModule() ? " " + new String(b, p.moduleStart(), p.lineEnd() - p.moduleStart(),
                            StandardCharsets.ISO_8859_1) : ""));
        }
        assertEquals(expected.size(), got.size());
        assertEquals(expected, got);
    }
}
