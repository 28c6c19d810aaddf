package dev.jperf.recorder;

import dev.jperf.format.kallsyms.KallsymsIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a recording needs of /proc/kallsyms at start (perf's kernel maps): the kernel text range and
 * the BPF trampoline/dispatcher images. The kernel formats ~120k lines (5 MB here) on every read, ~40 ms
 * of CPU that no parsing saves, so a recording reads all of it only when it may hold images (a
 * trampoline or dispatcher program is loaded: {@link #complete}) or when the text range cannot be
 * had otherwise: {@code _text} is among the first lines ({@link KallsymsIndex#readUntil}), and on
 * x86-64 /proc/iomem's "Kernel code" resource is {@code [_text, _etext)} by physical address, so its
 * length gives {@code _etext}. The file is not kept: the build-id cache, which wants the whole text
 * once per kernel, reads it again ({@link #bytes}), as perf copies it when it caches the kernel.
 */
final class KernelMaps {
    /** A symbol of module {@code [bpf]}. */
    record Image(long addr, String name) {}

    private final Path path;
    /** Whether the whole file was parsed (images known). */
    private final boolean whole;
    private boolean textFound;
    private long text;
    private long etext;
    private final List<Image> images = new ArrayList<>();

    private KernelMaps(Path path, KallsymsIndex k) {
        this.path = path;
        this.whole = k.complete();
        for (int i = 0, n = k.size(); i < n; i++) {
            if (k.hasModule(i)) {
                if (whole && "[bpf]".equals(k.module(i))) {
                    image(k, i);
                }
            } else if (!textFound && k.nameIs(i, "_text")) {
                text = k.address(i);
                textFound = true;
            } else if (k.nameIs(i, "_etext")) {
                etext = k.address(i);
            }
        }
    }

    /** The whole file: the kernel text range and the images. */
    static KernelMaps read(Path path) throws IOException {
        return new KernelMaps(path, KallsymsIndex.read(path));
    }

    /**
     * The kernel text range, reading only the head of {@code path} when {@code iomem} gives
     * {@code _etext} (x86-64, root); the whole file otherwise. Images are not known until
     * {@link #complete}.
     */
    static KernelMaps kernelRange(Path path, Path iomem) throws IOException {
        KallsymsIndex head = KallsymsIndex.readUntil(path, "_text");
        KernelMaps k = new KernelMaps(path, head);
        if (k.whole || k.hidden()) {
            return k; // a full read shows zeros too: no range, no images
        }
        long codeLength = "amd64".equals(System.getProperty("os.arch")) ? kernelCodeLength(iomem) : 0;
        if (codeLength <= 0) {
            return read(path);
        }
        k.etext = k.text + codeLength;
        return k;
    }

    /**
     * Whether the addresses are hidden from this process (kptr_restrict, or perf_event_paranoid
     * above 1 without CAP_SYSLOG: every address reads 0): perf's symbol_conf.kptr_restrict. Then no
     * kernel symbol is real, and none is written or cached.
     */
    boolean hidden() {
        return textFound && text == 0;
    }

    /** Whether the whole file was read (the images are known). */
    boolean whole() {
        return whole;
    }

    /** This, if the whole file was read; else the whole file read now. */
    KernelMaps complete() throws IOException {
        return whole || hidden() ? this : read(path);
    }

    /**
     * Length of the "Kernel code" resource in /proc/iomem (x86-64: {@code _etext - _text}), or 0
     * when absent or hidden (addresses read as zeros without CAP_SYS_ADMIN).
     */
    static long kernelCodeLength(Path iomem) {
        byte[] b;
        try {
            b = Files.readAllBytes(iomem);
        } catch (IOException e) {
            return 0;
        }
        for (int line = 0, end; line < b.length; line = end + 1) {
            end = ProcFile.lineEnd(b, line, b.length);
            // "  01000000-022090c7 : Kernel code"
            int p = line;
            while (p < end && b[p] == ' ') {
                p++;
            }
            int dash = p;
            while (dash < end && b[dash] != '-') {
                dash++;
            }
            int colon = dash;
            while (colon < end && b[colon] != ' ') {
                colon++;
            }
            if (end - colon == 14 && ProcFile.startsWith(b, colon, end, " : Kernel code")) {
                try {
                    long start = ProcFile.hex(b, p, dash);
                    long last = ProcFile.hex(b, dash + 1, colon);
                    return start >= 0 && last > start ? last - start + 1 : 0;
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 0;
    }

    /** Address of {@code _text}, 0 if hidden (kptr_restrict) or absent. */
    long text() {
        return text;
    }

    long etext() {
        return etext;
    }

    /** The images; empty unless the whole file was read. */
    List<Image> images() {
        return images;
    }

    /** The whole file as it is now. */
    byte[] bytes() throws IOException {
        return Files.readAllBytes(path);
    }

    /** bpf_trampoline_<n> / bpf_dispatcher_<name> in module [bpf], as perf picks them. */
    private void image(KallsymsIndex k, int i) {
        if (k.nameLength(i) == 0) {
            return;
        }
        String s = k.name(i);
        boolean trampoline = s.startsWith("bpf_trampoline_") && s.length() > 15 && digits(s, 15);
        if ((trampoline || s.startsWith("bpf_dispatcher_") && s.length() > 15) && k.address(i) != 0) {
            images.add(new Image(k.address(i), s));
        }
    }

    private static boolean digits(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            if (!Character.isDigit(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
