package dev.jperf.format.elf;

/** The {@code .gnu_debuglink} section: the separate debug file's name and its CRC32. */
public record ElfDebugLink(String fileName, int crc) {
}
