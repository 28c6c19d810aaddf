package dev.jperf.bpf;

import com.sun.jna.Memory;
import dev.jperf.format.json.JsonWriter;
import dev.jperf.format.bpf.BpfProgInfoLayout;
import dev.jperf.format.bpf.BpfMapInfoLayout;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.NativeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

/**
 * bpftool's {@code -f} table (build_pinned_obj_table): every program or map pinned in a bpf file
 * system, by id. The paths of one id come out in the order bpftool prints them: it files them in
 * a {@link LibbpfHashmap} walked in bpffs directory order, and both are kept here.
 */
final class PinnedPaths {
    private final LibbpfHashmap<String> table = new LibbpfHashmap<>();

    private PinnedPaths() {}

    /** The pins of objects of {@code type} ("prog" or "map") in every bpf mount of /proc/mounts. */
    static PinnedPaths build(KernelObjects kernel, String type) {
        PinnedPaths t = new PinnedPaths();
        List<String> mounts;
        try {
            mounts = Files.readAllLines(Path.of("/proc/mounts"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return t; // bpftool shows no pins then
        }
        for (String line : mounts) {
            String[] f = line.split(" ");
            if (f.length >= 3 && f[2].startsWith("bpf")) {
                t.walk(kernel, type, Path.of(unescape(f[1])));
            }
        }
        return t;
    }

    /** getmntent's decoding of \\040 (space), \\011 (tab), \\012, \\134 in a mount point. */
    private static String unescape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 3 < s.length() && s.substring(i + 1, i + 4).matches("[0-7]{3}")) {
                b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** nftw(FTW_PHYS): a directory's entries in readdir order, each subdirectory walked where it comes. */
    private void walk(KernelObjects kernel, String type, Path dir) {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    walk(kernel, type, p);
                } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    add(kernel, type, p.toString());
                }
            }
        } catch (IOException | RuntimeException e) {
            // an unreadable directory holds no pins bpftool could show
        }
    }

    private void add(KernelObjects kernel, String type, String path) {
        int fd;
        try {
            fd = kernel.bpf.objGet(path);
        } catch (NativeException e) {
            return; // open_obj_pinned(quiet): not a pin
        }
        try {
            if (!type.equals(KernelObjects.fdType(fd))) {
                return;
            }
            Memory info = new Memory(BpfProgInfoLayout.SIZE);
            kernel.info(fd, info, BpfProgInfoLayout.SIZE, true);
            int idAt = type.equals("prog") ? BpfProgInfoLayout.ID : BpfMapInfoLayout.ID;
            append(Integer.toUnsignedLong(info.getInt(idAt)), path);
        } catch (NativeException e) {
            // bpftool skips an object whose info it cannot read
        } finally {
            Fd.close(fd);
        }
    }

    private void append(long key, String value) {
        table.append(key, value);
    }

    boolean isEmpty() {
        return table.isEmpty();
    }

    /** hashmap__for_each_key_entry: the paths of {@code id}. */
    List<String> paths(int id) {
        return table.values(Integer.toUnsignedLong(id));
    }

    /** The "pinned" array of print_prog_json / show_map_close_json; nothing for null. */
    static void json(JsonWriter jw, List<String> paths) {
        if (paths == null) {
            return;
        }
        jw.name("pinned");
        jw.startArray();
        for (String p : paths) {
            jw.string(p);
        }
        jw.endArray();
    }

    /** The "pinned PATH" lines of print_prog_plain / show_map_close_plain; nothing for null. */
    static void plain(StringBuilder out, List<String> paths) {
        if (paths == null) {
            return;
        }
        for (String p : paths) {
            out.append("\n\tpinned ").append(p);
        }
    }
}
