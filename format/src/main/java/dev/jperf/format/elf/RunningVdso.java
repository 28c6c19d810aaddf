package dev.jperf.format.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * The vdso image of the kernel we run on, read from this process's own memory, as perf's
 * {@code machine__findnew_vdso} does when a [vdso] map has no build-id of its own to look up
 * (report's symbols, inject's build-ids).
 */
public final class RunningVdso {
    /** A vdso is two pages on x86-64; anything much larger is not one. */
    private static final long MAX_SIZE = 1 << 20;

    private RunningVdso() {
    }

    public static Optional<ElfFile> read() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
                if (!line.endsWith("[vdso]")) {
                    continue;
                }
                String range = line.substring(0, line.indexOf(' '));
                int dash = range.indexOf('-');
                long start = Long.parseUnsignedLong(range.substring(0, dash), 16);
                long end = Long.parseUnsignedLong(range.substring(dash + 1), 16);
                if (end <= start || end - start > MAX_SIZE) {
                    return Optional.empty();
                }
                ByteBuffer image = ByteBuffer.allocate((int) (end - start));
                try (FileChannel mem = FileChannel.open(Path.of("/proc/self/mem"), StandardOpenOption.READ)) {
                    while (image.hasRemaining() && mem.read(image, start + image.position()) > 0) {
                        // read until the whole mapping is in
                    }
                }
                return Optional.of(ElfFile.of("[vdso]", image.array()));
            }
        } catch (IOException | RuntimeException e) {
            // no /proc, no permission, or not an ELF image: no vdso symbols, as perf
        }
        return Optional.empty();
    }
}
