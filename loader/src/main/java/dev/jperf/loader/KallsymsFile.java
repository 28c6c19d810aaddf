package dev.jperf.loader;

import dev.jperf.format.kallsyms.KallsymsParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * /proc/kallsyms as one load sees it: read at the first question and kept for the load's others
 * (ksym externs, the syscall wrapper probe), searched by name with format's parser.
 */
final class KallsymsFile {
    private final Path path;
    /** The file's bytes; null until asked, empty when unreadable. */
    private byte[] bytes;

    KallsymsFile(Path path) {
        this.path = path;
    }

    static KallsymsFile proc() {
        return new KallsymsFile(Path.of("/proc/kallsyms"));
    }

    /**
     * The address of the first symbol named {@code name} (the kernel's or a module's), as libbpf
     * resolves a ksym extern; 0 when there is none, its address is hidden (kptr_restrict) or not hex.
     */
    long address(String name) {
        KallsymsParser p = KallsymsParser.of(bytes());
        while (p.next()) {
            if (p.wellFormed() && p.nameIs(name)) {
                return p.parseAddress() ? p.address() : 0;
            }
        }
        return 0;
    }

    /** Whether the kernel itself (not a module) has a symbol named {@code name}. */
    boolean hasKernelSymbol(String name) {
        KallsymsParser p = KallsymsParser.of(bytes());
        while (p.next()) {
            if (p.wellFormed() && !p.hasModule() && p.nameIs(name)) {
                return true;
            }
        }
        return false;
    }

    private byte[] bytes() {
        if (bytes == null) {
            try {
                bytes = Files.readAllBytes(path);
            } catch (IOException e) {
                bytes = new byte[0];
            }
        }
        return bytes;
    }
}
