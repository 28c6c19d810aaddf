package dev.jperf.recorder;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

class KallsymsTest {
    @TempDir
    Path dir;

    /** What the chunked byte parser must find, found line by line with Strings. */
    private record Expected(long text, long etext, List<Kallsyms.Image> images) {}

    private static Expected byLines(Path file) throws IOException {
        long text = 0;
        long etext = 0;
        List<Kallsyms.Image> images = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.ISO_8859_1)) {
            if (line.length() < 20 || line.charAt(16) != ' ' || line.charAt(18) != ' ') {
                continue;
            }
            long addr = Long.parseUnsignedLong(line.substring(0, 16), 16);
            String name = line.substring(19);
            if (name.equals("_text")) {
                text = addr;
            } else if (name.equals("_etext")) {
                etext = addr;
            } else if (name.endsWith("\t[bpf]") && addr != 0) {
                String n = name.substring(0, name.length() - 6);
                if (n.matches("bpf_trampoline_[0-9]+|bpf_dispatcher_.+")) {
                    images.add(new Kallsyms.Image(addr, n));
                }
            }
        }
        return new Expected(text, etext, images);
    }

    private static void assertSame(Expected e, Kallsyms k) {
        assertEquals(e.text(), k.text(), "_text");
        assertEquals(e.etext(), k.etext(), "_etext");
        assertEquals(e.images(), k.images());
    }

    /** Lines cut by the chunk boundaries anywhere, the last one without a line break. */
    @Test
    void findsTheKernelRangeAndBpfImagesAcrossChunks() throws IOException {
        StringBuilder s = new StringBuilder();
        s.append("0000000000000000 A fixed_percpu_data\n");
        s.append("ffffffff81000000 T _text\n");
        for (int i = 0; i < 30000; i++) {
            s.append(String.format("%016x t some_function_%d\n", 0xffffffff81001000L + 16L * i, i * 7919));
            if (i == 15000) {
                s.append("ffffffff82000000 T _etext\n");
            }
            if (i % 997 == 0) {
                s.append(String.format("%016x t bpf_trampoline_%d\t[bpf]\n", 0xffffffffc0000000L + i, i));
                s.append(String.format("%016x t bpf_dispatcher_xdp_func\t[bpf]\n", 0xffffffffc1000000L + i));
                s.append(String.format("%016x t bpf_prog_%d_f\t[bpf]\n", 0xffffffffc2000000L + i, i));
            }
        }
        s.append("ffffffffc0ffe000 t bpf_trampoline_77\t[bpf]");
        Path f = dir.resolve("kallsyms");
        Files.writeString(f, s, StandardCharsets.ISO_8859_1);
        assertTrue(Files.size(f) > 4 * 256 * 1024, "spans several chunks");
        Expected e = byLines(f);
        assertEquals(63, e.images().size(), "31 trampolines and dispatchers each, and the last line");
        assertSame(e, Kallsyms.read(f));
    }

    @Test
    void readsThisMachinesKallsyms() throws IOException {
        Path f = Path.of("/proc/kallsyms");
        assumeTrue(Files.isReadable(f), "no /proc/kallsyms");
        Expected e = byLines(f);
        Kallsyms k = Kallsyms.read(f);
        // the BPF images come and go with other programs on a shared machine: the kernel's range must match
        assertEquals(e.text(), k.text(), "_text");
        assertEquals(e.etext(), k.etext(), "_etext");
    }
}
