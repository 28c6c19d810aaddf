package dev.jperf.format.elf;

import java.io.IOException;

/** An ELF file that cannot be read; the message is one line naming the file and the problem. */
public final class ElfException extends IOException {
    private static final long serialVersionUID = 1L;

    public ElfException(String message) {
        super(message);
    }
}
