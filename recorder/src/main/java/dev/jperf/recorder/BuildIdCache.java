package dev.jperf.recorder;

import static dev.jperf.format.record.PerfRecord.PERF_RECORD_MISC_BUILD_ID_SIZE;
import static dev.jperf.format.record.PerfRecord.PERF_RECORD_MISC_KERNEL;
import static dev.jperf.format.record.PerfRecord.PERF_RECORD_MISC_USER;

import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.feature.BuildIds;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * HEADER_BUILD_ID entries for the DSOs with samples, and perf's build-id cache ({@code --buildid-dir},
 * else {@code ~/.debug}: written {@code ~/.debug} below) so the file can be reported after the binaries change or the machine reboots:
 * {@code ~/.debug/PATH/BUILD_ID/elf} (a hard link, else a copy), the kernel's symbols as
 * {@code ~/.debug/[kernel.kallsyms]/BUILD_ID/kallsyms}, and the index
 * {@code ~/.debug/.build-id/XX/REST -> ../../PATH/BUILD_ID}. A DSO that cannot be read or cached
 * is left out, as perf leaves it out. {@code jperf buildid-cache} adds, lists and removes entries
 * (builtin-buildid-cache.c's operations on the same layout).
 */
public final class BuildIdCache {
    static final String KERNEL = "[kernel.kallsyms]";

    private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY_DIR =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));

    private final Path root;

    BuildIdCache(Path root) {
        this.root = root;
    }

    /**
     * The cache at {@code root} (resolved by {@link dev.jperf.format.BuildIdDir}); null: entries
     * only, nothing cached ({@code record -N}).
     */
    public static BuildIdCache at(Path root) {
        return new BuildIdCache(root);
    }

    /** Directories the cache creates are the owner's only (0700), as its files are (0600). */
    private static void mkdirs(Path dir) throws IOException {
        Files.createDirectories(dir, OWNER_ONLY_DIR);
    }

    /** Entries for the kernel (when hit) and every user DSO with samples that has a build-id; caches each. */
    List<BuildIds.Entry> entries(DsoHits hits, KernelMaps kallsyms, Path kernelNotes) {
        List<BuildIds.Entry> out = new ArrayList<>();
        if (hits.kernelHit()) {
            Optional<byte[]> bid = kernelBuildId(kernelNotes);
            if (bid.isPresent()) {
                out.add(new BuildIds.Entry(PERF_RECORD_MISC_KERNEL | PERF_RECORD_MISC_BUILD_ID_SIZE, -1, bid.get(), KERNEL));
                cacheKallsyms(bid.get(), kallsyms);
            }
        }
        for (String dso : hits.userDsos()) {
            if (dso.startsWith("[") || dso.startsWith("//") || dso.endsWith(" (deleted)") || !dso.startsWith("/")) {
                continue;
            }
            Path file = Path.of(dso);
            try {
                Optional<byte[]> bid = ElfFile.readBuildId(file);
                if (bid.isPresent()) {
                    out.add(new BuildIds.Entry(PERF_RECORD_MISC_USER | PERF_RECORD_MISC_BUILD_ID_SIZE, -1, bid.get(), dso));
                    cacheFile(dso, bid.get(), file);
                }
            } catch (IOException | RuntimeException e) {
                // unreadable or not ELF: no build-id, as for perf
            }
        }
        return out;
    }

    /**
     * The kernel's symbols, read again only when this kernel's are not cached yet; hidden ones
     * (all zeros) are not cached, as perf does not cache a kptr_restrict'ed kallsyms.
     */
    private void cacheKallsyms(byte[] bid, KernelMaps kallsyms) {
        if (root == null || kallsyms.hidden()) {
            return;
        }
        try {
            Path dir = dir(KERNEL, bid);
            Path target = dir.resolve("kallsyms");
            if (!Files.exists(target)) {
                byte[] content = kallsyms.bytes();
                mkdirs(dir);
                Path tmp = Files.createTempFile(dir, "kallsyms", ".tmp");
                Files.write(tmp, content);
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            }
            link(KERNEL, bid);
        } catch (IOException e) {
            // a read-only or full home: the recording itself is complete without the cache
        }
    }

    private void cacheFile(String name, byte[] bid, Path file) {
        if (root == null) {
            return;
        }
        try {
            storeElf(name, bid, file);
        } catch (IOException e) {
            // as above
        }
    }

    /** {@code file} cached as NAME/BUILD_ID/elf (a hard link, else a copy) and indexed, unless it is already. */
    private void storeElf(String name, byte[] bid, Path file) throws IOException {
        Path dir = dir(name, bid);
        Path target = dir.resolve("elf");
        if (!Files.exists(target)) {
            mkdirs(dir);
            try {
                Files.createLink(target, file);
            } catch (IOException | UnsupportedOperationException e) {
                Path tmp = Files.createTempFile(dir, "elf", ".tmp");
                // into the 0600 temporary file itself: a copy by path would create a 0644 one
                try (java.io.OutputStream out = Files.newOutputStream(tmp)) {
                    Files.copy(file, out);
                }
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            }
        }
        link(name, bid);
    }

    private Path dir(String name, byte[] bid) {
        return root.resolve(name.startsWith("/") ? name.substring(1) : name).resolve(HexFormat.of().formatHex(bid));
    }

    private void link(String name, byte[] bid) throws IOException {
        String hex = HexFormat.of().formatHex(bid);
        Path link = root.resolve(".build-id").resolve(hex.substring(0, 2)).resolve(hex.substring(2));
        if (Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        mkdirs(link.getParent());
        try {
            Files.createSymbolicLink(link, Path.of("../..").resolve(name.startsWith("/") ? name.substring(1) : name).resolve(hex));
        } catch (FileAlreadyExistsException e) {
            // another recording linked it meanwhile
        }
    }

    /** The running kernel's GNU build-id from /sys/kernel/notes (ELF notes). */
    static Optional<byte[]> kernelBuildId(Path notes) {
        try {
            return ElfFile.buildIdInNotes(ByteBuffer.wrap(Files.readAllBytes(notes)).order(ByteOrder.LITTLE_ENDIAN));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** One cached file: its build-id (hex) and the name it is cached under. */
    public record Cached(String buildId, String name) {
    }

    /**
     * Adds {@code file} (by its real path, as perf's build_id_cache__add_s) under its build-id; an
     * existing entry is kept unless {@code update}. Returns the build-id, empty when the file has none.
     *
     * @throws IOException when the file cannot be read or the cache written
     */
    public Optional<String> add(Path file, boolean update) throws IOException {
        Path real = file.toRealPath();
        Optional<byte[]> bid = ElfFile.readBuildId(real);
        if (bid.isEmpty()) {
            return Optional.empty();
        }
        String name = real.toString();
        if (update) {
            Files.deleteIfExists(dir(name, bid.get()).resolve("elf"));
        }
        storeElf(name, bid.get(), real);
        return Optional.of(HexFormat.of().formatHex(bid.get()));
    }

    /** The build-id of {@code file}, empty when it has none. */
    public static Optional<String> buildIdOf(Path file) throws IOException {
        return ElfFile.readBuildId(file).map(HexFormat.of()::formatHex);
    }

    /**
     * Every entry of the index whose cached file is there (perf's build_id_cache__list_all with
     * validonly), in the index's order: by build-id.
     */
    public List<Cached> list() throws IOException {
        List<Cached> out = new ArrayList<>();
        Path index = root.resolve(".build-id");
        if (!Files.isDirectory(index)) {
            return out;
        }
        List<Path> heads;
        try (java.util.stream.Stream<Path> s = Files.list(index)) {
            heads = s.sorted().toList();
        }
        for (Path head : heads) {
            List<Path> links;
            try (java.util.stream.Stream<Path> s = Files.list(head)) {
                links = s.sorted().toList();
            } catch (IOException e) {
                continue;
            }
            for (Path link : links) {
                String bid = head.getFileName().toString() + link.getFileName();
                if (!Files.isSymbolicLink(link) || !Files.isDirectory(link)) {
                    continue;
                }
                Path target = Files.readSymbolicLink(link);
                // ../../NAME/BUILD_ID: the name between the two
                String t = target.toString();
                if (!t.startsWith("../../") || !t.endsWith("/" + bid)) {
                    continue;
                }
                String name = t.substring("../..".length(), t.length() - bid.length() - 1);
                if (name.startsWith("/[")) {
                    name = name.substring(1);
                }
                if (!valid(link, name)) {
                    continue;
                }
                out.add(new Cached(bid, name));
            }
        }
        return out;
    }

    /** The directory of a cached entry: NAME/BUILD_ID, where its file and its SDT probes are. */
    public Path entryDir(Cached c) {
        return dir(c.name(), HexFormat.of().parseHex(c.buildId()));
    }

    /** perf's build_id_cache__valid_id: the entry's file is there (elf, kallsyms or vdso). */
    private static boolean valid(Path entry, String name) {
        String file = name.equals(KERNEL) ? "kallsyms" : name.equals("[vdso]") ? "vdso" : "elf";
        return Files.exists(entry.resolve(file));
    }

    /** Whether {@code buildId} (hex) is in the index, as perf's build_id_cache__cached. */
    public boolean cached(String buildId) {
        return buildId.length() > 2 && Files.exists(root.resolve(".build-id").resolve(buildId.substring(0, 2)).resolve(buildId.substring(2)));
    }

    /**
     * Removes the entry of {@code buildId}: its directory and its index link (perf's
     * build_id_cache__remove_s); false when it was not cached.
     */
    public boolean remove(String buildId) throws IOException {
        Path link = root.resolve(".build-id").resolve(buildId.substring(0, 2)).resolve(buildId.substring(2));
        if (!Files.isSymbolicLink(link)) {
            return false;
        }
        Path dir = link.getParent().resolve(Files.readSymbolicLink(link)).normalize();
        deleteTree(dir);
        Files.delete(link);
        return true;
    }

    /** The build-ids cached for {@code name} (a real path or [kernel.kallsyms]), sorted. */
    public List<String> buildIdsOf(String name) throws IOException {
        Path dir = root.resolve(name.startsWith("/") ? name.substring(1) : name);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (java.util.stream.Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.matches("[0-9a-f]{2,}")).sorted().toList();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (java.util.stream.Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
