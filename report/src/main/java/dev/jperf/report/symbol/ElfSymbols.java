package dev.jperf.report.symbol;

import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.elf.ElfProgramHeader;
import dev.jperf.format.elf.ElfSection;
import dev.jperf.format.elf.ElfSymbol;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Builds a user-space DSO's {@link SymbolTable} from ELF the way perf 6.1 does (dso__load_sym):
 * functions and objects of {@code .symtab} (else {@code .dynsym}) in allocated sections, addresses
 * turned into file offsets with the PT_LOAD segment of the runtime image, then, if that gave any,
 * {@code name@plt} entries synthesised from {@code .rela.plt}. Sample addresses are looked up as
 * file offsets (ip - map start + pgoff), which handles PIE, shared objects and fixed executables
 * alike.
 */
public final class ElfSymbols {
    private ElfSymbols() {
    }

    /**
     * @param syms the image with the best symbol table (a debug file, or the binary itself)
     * @param runtime the image that ran (program headers, .dynsym, .plt); may equal {@code syms}
     * @param demangler how names are shown (perf demangles user-space ELF names), or null for as-is
     */
    public static SymbolTable load(ElfFile syms, ElfFile runtime, Demangler demangler) throws java.io.IOException {
        Optional<ElfSection> table = syms.section(".symtab").filter(s -> s.type() == ElfSection.SHT_SYMTAB);
        ElfFile symsFile = syms;
        if (table.isEmpty()) {
            table = syms.section(".dynsym").filter(s -> s.type() == ElfSection.SHT_DYNSYM);
        }
        List<Symbol> out = new ArrayList<>();
        if (table.isPresent()) {
            for (ElfSymbol sym : symsFile.symbols(table.get())) {
                Symbol s = convert(sym, symsFile, runtime, demangler);
                if (s != null) {
                    out.add(s);
                }
            }
        }
        // perf 6.1's dso__load synthesizes the PLT only when dso__load_sym kept a symbol ("if (ret > 0)"):
        // a stripped PIE whose .dynsym holds imports alone (Debian's addr2line) has no name@plt at all
        return SymbolTable.ofElf(out, out.isEmpty() ? List.of() : pltSymbols(runtime, demangler));
    }

    private static Symbol convert(ElfSymbol sym, ElfFile syms, ElfFile runtime, Demangler demangler) {
        int type = sym.type();
        boolean named = !sym.name().isEmpty() && sym.shndx() != ElfSymbol.SHN_UNDEF;
        boolean function = (type == ElfSymbol.STT_FUNC || type == ElfSymbol.STT_GNU_IFUNC) && named;
        boolean object = type == ElfSymbol.STT_OBJECT && named;
        boolean label = type == ElfSymbol.STT_NOTYPE && named && sym.shndx() != ElfSymbol.SHN_ABS;
        if (!function && !object && !label) {
            return null;
        }
        Optional<ElfSection> sec = syms.section(sym.shndx());
        if (sec.isEmpty() || !sec.get().isAlloc()) {
            return null;
        }
        ElfSection shdr = sec.get();
        if (shdr.type() == ElfSection.SHT_NOBITS) {
            Optional<ElfSection> rt = runtime.section(sym.shndx());
            if (rt.isPresent()) {
                shdr = rt.get();
            }
        }
        if (label && !shdr.name().contains("text")) {
            return null;
        }
        Optional<ElfProgramHeader> ph = runtime.loadSegmentFor(sym.value());
        if (ph.isEmpty()) {
            return null;
        }
        long start = sym.value() - (ph.get().vaddr() - ph.get().offset());
        return new Symbol(start, start + sym.size(), sym.name(), type, sym.bind(), demangler);
    }

    /**
     * perf 6.1's dso__synthesize_plt_symbols: one {@code name@plt} per .rela.plt entry, in order,
     * the name demangled before the suffix is added (few entries: done here, not lazily). As in 6.1
     * (6.3 added .plt.sec and .plt.got): only {@code .plt} is named, at file offsets, its first
     * sh_entsize bytes the header and each entry sh_entsize long (ARM and AArch64: fixed sizes), lazy
     * or {@code -z now} alike; {@code .plt.sec} (IBT, where the calls land) and {@code .plt.got} stay
     * unnamed. Called only when the symbol table gave a symbol (see {@link #load}).
     */
    static List<Symbol> pltSymbols(ElfFile elf, Demangler demangler) throws java.io.IOException {
        Optional<ElfSection> dynsym = elf.section(".dynsym").filter(s -> s.type() == ElfSection.SHT_DYNSYM);
        if (dynsym.isEmpty()) {
            return List.of();
        }
        Optional<ElfSection> rel = elf.section(".rela.plt");
        if (rel.isEmpty()) {
            rel = elf.section(".rel.plt");
        }
        Optional<ElfSection> plt = elf.section(".plt");
        if (rel.isEmpty() || plt.isEmpty() || rel.get().link() != dynsym.get().index()
                || rel.get().type() == ElfSection.SHT_NOBITS) {
            return List.of();
        }
        long header;
        long entry;
        switch (elf.machine()) {
            case ElfFile.EM_ARM -> {
                header = 20;
                entry = 12;
            }
            case ElfFile.EM_AARCH64 -> {
                header = 32;
                entry = 16;
            }
            default -> {
                header = plt.get().entsize();
                entry = plt.get().entsize();
            }
        }
        // only the dynamic symbols the relocations name (reading all of .dynsym made an object and
        // a name per symbol of a large library for a few PLT entries)
        int count = elf.symbolCount(dynsym.get());
        int[] idx = elf.relocationSymbols(rel.get());
        List<Symbol> out = new ArrayList<>(idx.length);
        long off = plt.get().offset() + header;
        for (int i : idx) {
            String name = i >= 0 && i < count ? elf.symbol(dynsym.get(), i).name() : "";
            if (demangler != null) {
                name = demangler.demangle(name);
            }
            out.add(new Symbol(off, off + entry, name + "@plt", ElfSymbol.STT_FUNC, ElfSymbol.STB_GLOBAL));
            off += entry;
        }
        return out;
    }
}
