package dev.jperf.format.elf;

/**
 * One section header (Elf64_Shdr / Elf32_Shdr, widened), with its name resolved.
 *
 * @param index the section's index in the section header table
 */
public record ElfSection(int index, String name, int type, long flags, long addr, long offset, long size,
        int link, int info, long addralign, long entsize) {
    public static final int SHT_NULL = 0;
    public static final int SHT_PROGBITS = 1;
    public static final int SHT_SYMTAB = 2;
    public static final int SHT_STRTAB = 3;
    public static final int SHT_RELA = 4;
    public static final int SHT_NOTE = 7;
    public static final int SHT_NOBITS = 8;
    public static final int SHT_REL = 9;
    public static final int SHT_DYNSYM = 11;
    public static final long SHF_ALLOC = 0x2;
    public static final long SHF_EXECINSTR = 0x4;

    public boolean isAlloc() {
        return (flags & SHF_ALLOC) != 0;
    }
}
