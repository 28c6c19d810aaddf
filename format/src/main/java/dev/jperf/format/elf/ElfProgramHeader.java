package dev.jperf.format.elf;

/** One program header (Elf64_Phdr / Elf32_Phdr, widened). */
public record ElfProgramHeader(int type, int flags, long offset, long vaddr, long paddr, long filesz, long memsz,
        long align) {
    public static final int PT_LOAD = 1;
    public static final int PT_DYNAMIC = 2;
    public static final int PT_NOTE = 4;
    public static final int PF_X = 1;

    /** True when {@code vaddr} lies in this segment, sized as perf sizes it: max(filesz, memsz). */
    public boolean containsVaddr(long va) {
        long sz = Math.max(memsz, filesz);
        return sz != 0 && Long.compareUnsigned(va, vaddr) >= 0 && Long.compareUnsigned(va - vaddr, sz) < 0;
    }
}
