package dev.jperf.recorder;

import dev.jperf.format.kallsyms.KallsymsParser;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a recording needs of /proc/kallsyms at start: the kernel text range and the BPF
 * trampoline/dispatcher images. The kernel formats ~120k lines (5 MB here) on every read, ~40 ms
 * of CPU that no parsing saves, so a recording reads all of it only when it may hold images (a
 * trampoline or dispatcher program is loaded: {@link #complete}) or when the text range cannot be
 * had otherwise: {@code _text} is among the first lines, and on x86-64 /proc/iomem's "Kernel code"
 * resource is {@code [_text, _etext)} by physical address, so its length gives {@code _etext}.
 * A full read parses 256 KiB chunks as they come ({@link KallsymsParser}: on bytes, without a
 * String per line) without keeping the file: the build-id cache, which wants the whole text once per kernel, reads it again
 * ({@link #bytes}), as perf copies it when it caches the kernel.
 */
final class Kallsyms {
    /** A symbol of module {@code [bpf]}. */
    record Image(long addr, String name) {}

    private static final int CHUNK = 256 * 1024;
    /** The head read: the kernel formats as much as the read asks for, and _text is on line 2 or 3. */
    private static final int HEAD_CHUNK = 4096;

    private final Path path;
    /** Whether the whole file was parsed (images known). */
    private final boolean whole;
    private boolean textFound;
    private long text;
    private long etext;
    private final List<Image> images = new ArrayList<>();

    private Kallsyms(Path path, boolean whole) {
        this.path = path;
        this.whole = whole;
    }

    /** The whole file: the kernel text range and the images. */
    static Kallsyms read(Path path) throws IOException {
        Kallsyms k = new Kallsyms(path, true);
        k.scan(CHUNK, false);
        return k;
    }

    /**
     * The kernel text range, reading only the head of {@code path} when {@code iomem} gives
     * {@code _etext} (x86-64, root); the whole file otherwise. Images are not known until
     * {@link #complete}.
     */
    static Kallsyms kernelRange(Path path, Path iomem) throws IOException {
        Kallsyms k = new Kallsyms(path, false);
        k.scan(HEAD_CHUNK, true);
        if (k.hidden()) {
            return k; // a full read shows zeros too: no range, no images
        }
        long codeLength = "amd64".equals(System.getProperty("os.arch")) ? kernelCodeLength(iomem) : 0;
        if (!k.textFound || codeLength <= 0) {
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
    Kallsyms complete() throws IOException {
        return whole || hidden() ? this : read(path);
    }

    /**
     * Parses the file in chunks of {@code chunk} bytes; with {@code untilText} it stops at the
     * chunk that holds _text.
     */
    private void scan(int chunk, boolean untilText) throws IOException {
        byte[] buf = new byte[chunk];
        try (InputStream in = Files.newInputStream(path)) {
            int filled = 0;
            for (int n; (n = in.read(buf, filled, buf.length - filled)) >= 0; ) {
                filled += n;
                int done = parse(buf, filled, false);
                if (untilText && textFound) {
                    return;
                }
                if (done == 0 && filled == buf.length) {
                    done = filled; // a line longer than the buffer is no symbol line: drop it
                }
                System.arraycopy(buf, done, buf, 0, filled - done);
                filled -= done;
            }
            parse(buf, filled, true);
        }
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

    /**
     * Parses the whole lines among the first {@code n} bytes of {@code b} (also the last, unended
     * one when {@code atEnd}); returns how many bytes that was.
     */
    private int parse(byte[] b, int n, boolean atEnd) {
        KallsymsParser p = new KallsymsParser(b, 0, n, atEnd);
        while (p.next()) {
            if (!p.wellFormed() || p.nameEnd() == p.nameStart()) {
                continue;
            }
            if (p.hasModule()) {
                if (p.moduleIs("[bpf]")) {
                    image(p);
                }
            } else if (p.nameIs("_text")) {
                text = address(p);
                textFound = true;
            } else if (p.nameIs("_etext")) {
                etext = address(p);
            }
        }
        return p.consumed();
    }

    /** bpf_trampoline_<n> / bpf_dispatcher_<name> in module [bpf], as perf picks them. */
    private void image(KallsymsParser p) {
        String s = p.name();
        boolean trampoline = s.startsWith("bpf_trampoline_") && s.length() > 15 && digits(s, 15);
        if ((trampoline || s.startsWith("bpf_dispatcher_") && s.length() > 15) && address(p) != 0) {
            images.add(new Image(address(p), s));
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

    /** The line's address; 0 (as kptr_restrict shows them) when it is not hex. */
    private static long address(KallsymsParser p) {
        return p.parseAddress() ? p.address() : 0;
    }
}
