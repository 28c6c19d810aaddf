package dev.jperf.format.elf;

/** One entry of a SHT_REL or SHT_RELA section: r_offset, r_info's symbol and type, r_addend (0 for REL). */
public record ElfRelocation(long offset, int symbol, int type, long addend) {
}
