package dev.jperf.loader;

import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfCDump;
import dev.jperf.format.btf.BtfException;
import dev.jperf.format.elf.ElfFile;
import dev.jperf.nativeshim.JnaBoot;
import dev.jperf.format.io.ProcFs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashSet;
import java.util.Set;

/**
 * The vmlinux.h a BPF source includes, written from the running kernel's BTF with jperf's own
 * C dumper (format's {@link BtfCDump}, what {@code bpftool btf dump file /sys/kernel/btf/vmlinux
 * format c} prints) when the source's directory has none. Cached per kernel in
 * {@code DIR/KEY/vmlinux.h}, KEY the kernel's build-id from /sys/kernel/notes, else its release,
 * so a kernel's header is written once; DIR is {@code $JPERF_VMLINUX_DIR} (or the property
 * {@code jperf.vmlinux.dir}: tests keep it in their own directory), else
 * {@code $XDG_CACHE_HOME/jperf/vmlinux} ({@code ~/.cache/jperf/vmlinux}).
 */
public final class VmlinuxHeader {
    public static final String NAME = "vmlinux.h";
    private static final Path VMLINUX_BTF = Path.of("/sys/kernel/btf/vmlinux");
    /** Local headers followed from a source looking for vmlinux.h. */
    private static final int MAX_HEADERS = 64;

    private VmlinuxHeader() {
    }

    /** Does {@code source}, or a header of its directory it includes, include vmlinux.h that the directory lacks? */
    public static boolean needed(Path source) throws IOException {
        Path dir = source.toAbsolutePath().getParent();
        if (Files.exists(dir.resolve(NAME))) {
            return false;
        }
        return includes(source, dir, new HashSet<>());
    }

    private static boolean includes(Path file, Path dir, Set<Path> seen) throws IOException {
        if (!seen.add(file) || seen.size() > MAX_HEADERS) {
            return false;
        }
        String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        int at = 0;
        while (at < text.length()) {
            int end = text.indexOf('\n', at);
            if (end < 0) {
                end = text.length();
            }
            String name = included(text, at, end);
            at = end + 1;
            if (name == null) {
                continue;
            }
            if (name.equals(NAME)) {
                return true;
            }
            Path h = dir.resolve(name);
            if (name.indexOf('/') < 0 && Files.isRegularFile(h) && includes(h, dir, seen)) {
                return true;
            }
        }
        return false;
    }

    /** The file a {@code #include "x"} or {@code #include <x>} line names, else null. */
    private static String included(String text, int from, int to) {
        int i = skipBlanks(text, from, to);
        if (i >= to || text.charAt(i) != '#') {
            return null;
        }
        i = skipBlanks(text, i + 1, to);
        if (!text.startsWith("include", i)) {
            return null;
        }
        i = skipBlanks(text, i + "include".length(), to);
        if (i >= to || (text.charAt(i) != '"' && text.charAt(i) != '<')) {
            return null;
        }
        char close = text.charAt(i) == '"' ? '"' : '>';
        int e = text.indexOf(close, i + 1);
        return e < 0 || e > to ? null : text.substring(i + 1, e);
    }

    private static int skipBlanks(String s, int i, int to) {
        while (i < to && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    /**
     * The directory holding the running kernel's vmlinux.h: the cached one, else written now
     * (into {@code fallback} when there is no cache directory). One line when the kernel has no BTF.
     */
    public static Path directory(Path fallback) throws IOException {
        if (!Files.isReadable(VMLINUX_BTF)) {
            throw new IOException("the source includes " + NAME + " and the running kernel has no BTF to write it from ("
                    + VMLINUX_BTF + "); put a " + NAME + " beside the source");
        }
        Path cache = cacheDir();
        Path dir = cache == null ? fallback : cache.resolve(kernelKey());
        Path header = dir.resolve(NAME);
        if (Files.isRegularFile(header)) {
            return dir;
        }
        Files.createDirectories(dir);
        StringBuilder text = new StringBuilder(8 << 20);
        try {
            BtfCDump.header(Btf.load(VMLINUX_BTF), new int[0], text);
        } catch (BtfException e) {
            throw new IOException("writing " + NAME + " from " + VMLINUX_BTF + ": " + e.getMessage());
        }
        // written beside its name and renamed: a concurrent recording never reads half a header
        Path tmp = Files.createTempFile(dir, NAME, ".tmp");
        try {
            Files.write(tmp, text.toString().getBytes(StandardCharsets.UTF_8));
            Files.move(tmp, header, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
        return dir;
    }

    /** Where the headers are cached, null when nowhere (no home). */
    public static Path cacheDir() throws IOException {
        String dir = System.getProperty("jperf.vmlinux.dir");
        if (dir == null) {
            dir = System.getenv("JPERF_VMLINUX_DIR");
        }
        if (dir != null && !dir.isEmpty()) {
            return Path.of(dir);
        }
        Path cache = JnaBoot.cacheDir();
        return cache == null ? null : cache.resolve("vmlinux");
    }

    /** The running kernel's build-id (hex), else its release. */
    public static String kernelKey() throws IOException {
        try {
            byte[] notes = Files.readAllBytes(Path.of("/sys/kernel/notes"));
            byte[] id = ElfFile.buildIdInNotes(ByteBuffer.wrap(notes).order(ByteOrder.nativeOrder())).orElse(null);
            if (id != null) {
                StringBuilder b = new StringBuilder(id.length * 2);
                for (byte x : id) {
                    b.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
                }
                return b.toString();
            }
        } catch (IOException e) {
            // no notes readable: the release names the kernel
        }
        return ProcFs.readText(Path.of("/proc/sys/kernel/osrelease"));
    }
}
