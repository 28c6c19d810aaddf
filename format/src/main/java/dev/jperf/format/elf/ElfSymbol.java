package dev.jperf.format.elf;

/** One symbol table entry (Elf64_Sym / Elf32_Sym, widened), with its name resolved. */
public record ElfSymbol(String name, long value, long size, int info, int other, int shndx) {
    public static final int STB_LOCAL = 0;
    public static final int STB_GLOBAL = 1;
    public static final int STB_WEAK = 2;
    public static final int STT_NOTYPE = 0;
    public static final int STT_OBJECT = 1;
    public static final int STT_FUNC = 2;
    public static final int STT_SECTION = 3;
    public static final int STT_FILE = 4;
    public static final int STT_GNU_IFUNC = 10;
    public static final int SHN_UNDEF = 0;
    public static final int SHN_ABS = 0xfff1;

    public int bind() {
        return info >>> 4;
    }

    public int type() {
        return info & 0xf;
    }
}
