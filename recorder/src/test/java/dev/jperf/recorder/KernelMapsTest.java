package dev.jperf.recorder;

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
import org.junit.jupiter.api.io.TempDir;

class KernelMapsTest {
    @TempDir
    Path dir;

    /** What the chunked byte parser must find, found line by line with Strings. */
    private record Expected(long text, long etext, List<KernelMaps.Image> images) {}

    private static Expected byLines(Path file) throws IOException {
        long text = 0;
        long etext = 0;
        List<KernelMaps.Image> images = new ArrayList<>();
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
                    images.add(new KernelMaps.Image(addr, n));
                }
            }
        }
        return new Expected(text, etext, images);
    }

    private static void assertSame(Expected e, KernelMaps k) {
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
        assertSame(e, KernelMaps.read(f));
    }

    /** "Kernel code" of /proc/iomem gives _etext - _text; the head read stops before the images. */
    @Test
    void kernelRangeFromTheHeadAndIomem() throws IOException {
        assumeTrue("amd64".equals(System.getProperty("os.arch")), "iomem's Kernel code is [_text, _etext) on x86-64 only");
        StringBuilder s = new StringBuilder("0000000000000000 A fixed_percpu_data\nffffffff81000000 T _stext\n"
                + "ffffffff81000000 T _text\n");
        for (int i = 0; i < 20000; i++) {
            s.append(String.format("%016x t some_function_%d\n", 0xffffffff81001000L + 16L * i, i));
        }
        s.append("ffffffff822090c8 T _etext\nffffffffc0ffe000 t bpf_trampoline_77\t[bpf]\n");
        Path f = dir.resolve("kallsyms");
        Files.writeString(f, s, StandardCharsets.ISO_8859_1);
        Path iomem = dir.resolve("iomem");
        Files.writeString(iomem, "00000000-00000fff : Reserved\n00100000-bffdffff : System RAM\n"
                + "  01000000-022090c7 : Kernel code\n  02400000-02e08fff : Kernel rodata\n");
        KernelMaps k = KernelMaps.kernelRange(f, iomem);
        assertEquals(0xffffffff81000000L, k.text());
        assertEquals(0xffffffff822090c8L, k.etext());
        assertEquals(List.of(), k.images(), "the head read does not reach the images");
        assertSame(byLines(f), k.complete());

        // without the resource (or with its addresses hidden: zeros) the whole file is read
        Files.writeString(iomem, "00000000-00000000 : Reserved\n  00000000-00000000 : Kernel code\n");
        assertEquals(0, KernelMaps.kernelCodeLength(iomem));
        assertSame(byLines(f), KernelMaps.kernelRange(f, iomem));
        assertEquals(0, KernelMaps.kernelCodeLength(dir.resolve("missing")));
    }

    /**
     * Addresses hidden from this process (perf_event_paranoid above 1 without CAP_SYSLOG, or
     * kptr_restrict): every line reads 0, so neither the kernel's range nor an image is real. The
     * head tells, and the rest (~40 ms of the kernel's CPU) is not read, not even for the images.
     */
    @Test
    void hiddenAddressesAreNoRangeAndNoImages() throws IOException {
        StringBuilder s = new StringBuilder("0000000000000000 T srso_alias_untrain_ret\n0000000000000000 T _stext\n"
                + "0000000000000000 T _text\n");
        for (int i = 0; i < 20000; i++) {
            s.append(String.format("0000000000000000 t some_function_%d\n", i));
        }
        s.append("0000000000000000 T _etext\n0000000000000000 t bpf_dispatcher_xdp\t[bpf]\n");
        Path f = dir.resolve("kallsyms");
        Files.writeString(f, s, StandardCharsets.ISO_8859_1);
        Path iomem = dir.resolve("iomem");
        Files.writeString(iomem, "00000000-00000000 : Reserved\n  00000000-00000000 : Kernel code\n");
        KernelMaps k = KernelMaps.kernelRange(f, iomem);
        assertTrue(k.hidden());
        assertEquals(0, k.text());
        assertEquals(0, k.etext());
        assertFalse(k.whole(), "only the head was read");
        assertTrue(k.complete() == k, "nothing more to learn from a full read");
        assertEquals(List.of(), k.complete().images());
        assertTrue(KernelMaps.read(f).hidden());
        assertEquals(List.of(), KernelMaps.read(f).images(), "zero-address images are none");
    }

    @Test
    void readsThisMachinesKallsyms() throws IOException {
        Path f = Path.of("/proc/kallsyms");
        assumeTrue(Files.isReadable(f), "no /proc/kallsyms");
        Expected e = byLines(f);
        KernelMaps k = KernelMaps.read(f);
        // the BPF images come and go with other programs on a shared machine: the kernel's range must match
        assertEquals(e.text(), k.text(), "_text");
        assertEquals(e.etext(), k.etext(), "_etext");
        // and the range a recording takes from the head and /proc/iomem (root) is the same
        KernelMaps head = KernelMaps.kernelRange(f, Path.of("/proc/iomem"));
        assertEquals(e.text(), head.text(), "_text from the head");
        assertEquals(e.etext(), head.etext(), "_etext from iomem");
    }
}
