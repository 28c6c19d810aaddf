package dev.jperf.report.annotate;

import dev.jperf.format.elf.ElfException;
import dev.jperf.format.elf.ElfFile;
import dev.jperf.format.elf.ElfSection;
import dev.jperf.format.elf.ElfSymbol;
import dev.jperf.nativeshim.X86Disassembler;
import dev.jperf.format.elf.ElfRelocation;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * An ELF file's addresses named as objdump names them after a branch target or RIP-relative
 * operand ({@code <sym+0xoff>}): the nearest symbol at or below the address in the same section
 * (of {@code .symtab}, else {@code .dynsym}; sections and files left out), at equal addresses a
 * function preferred, then a global one, and objdump's synthetic {@code name@plt} entries ({@code .plt.sec} when the
 * binary has one, else {@code .plt} after its header).
 */
final class ObjdumpSymbols implements X86Disassembler.Symbols {
    private static final int SHT_GNU_VERDEF = 0x6ffffffd;
    private static final int SHT_GNU_VERNEED = 0x6ffffffe;
    private static final int SHT_GNU_VERSYM = 0x6fffffff;

    /** One section's symbols by address, the preferred of equal addresses last. */
    private record Sorted(long[] addr, String[] name) {
        static Sorted of(List<long[]> a, List<String> n) {
            Integer[] order = new Integer[a.size()];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            // at one address: global before weak before local, then the first name in byte order
            Arrays.sort(order, (x, y) -> {
                int c = Long.compareUnsigned(a.get(x)[0], a.get(y)[0]);
                c = c != 0 ? c : Long.compare(a.get(x)[1], a.get(y)[1]);
                return c != 0 ? c : n.get(y).compareTo(n.get(x));
            });
            long[] ad = new long[order.length];
            String[] nm = new String[order.length];
            for (int i = 0; i < order.length; i++) {
                ad[i] = a.get(order[i])[0];
                nm[i] = n.get(order[i]);
            }
            return new Sorted(ad, nm);
        }

        int floor(long address) {
            int lo = 0;
            int hi = addr.length - 1;
            int found = -1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                if (Long.compareUnsigned(addr[mid], address) <= 0) {
                    found = mid;
                    lo = mid + 1;
                } else {
                    hi = mid - 1;
                }
            }
            return found;
        }
    }

    /** objdump -C. */
    private boolean demangle = true;
    private final Sorted all;
    private final Map<Integer, Sorted> bySection = new HashMap<>();
    private final Map<Long, String> gotSlots;
    private final List<ElfSection> alloc = new ArrayList<>();

    private ObjdumpSymbols(List<long[]> a, List<String> n, List<Integer> s, List<ElfSection> sections,
            Map<Long, String> gotSlots) {
        all = Sorted.of(a, n);
        Map<Integer, List<Integer>> idx = new HashMap<>();
        for (int i = 0; i < s.size(); i++) {
            idx.computeIfAbsent(s.get(i), k -> new ArrayList<>()).add(i);
        }
        for (Map.Entry<Integer, List<Integer>> e : idx.entrySet()) {
            List<long[]> sa = new ArrayList<>();
            List<String> sn = new ArrayList<>();
            for (int i : e.getValue()) {
                sa.add(a.get(i));
                sn.add(n.get(i));
            }
            bySection.put(e.getKey(), Sorted.of(sa, sn));
        }
        for (ElfSection sec : sections) {
            if (sec.isAlloc() && sec.size() > 0) {
                alloc.add(sec);
            }
        }
        this.gotSlots = gotSlots;
    }

    /** The names as {@code objdump -d} gives them (not demangled). */
    static ObjdumpSymbols of(ElfFile elf) throws ElfException {
        ObjdumpSymbols s = of(elf, null);
        s.demangle = false;
        return s;
    }

    /**
     * @param debug the detached debug file objdump finds by build-id under {@code DIR/.build-id}
     *     (its {@code .symtab} is used when the binary has none), or null to look in none;
     *     the names demangled as {@code objdump -C} (perf's command) does
     */
    static ObjdumpSymbols of(ElfFile elf, java.nio.file.Path debug) throws ElfException {
        List<long[]> a = new ArrayList<>();
        List<String> n = new ArrayList<>();
        List<Integer> s = new ArrayList<>();
        ElfFile symbolFile = elf;
        Optional<ElfSection> table = elf.section(".symtab").filter(x -> x.type() == ElfSection.SHT_SYMTAB);
        if (table.isEmpty() && debug != null) {
            ElfFile d = debugFile(elf, debug);
            Optional<ElfSection> t = d == null ? Optional.empty()
                    : d.section(".symtab").filter(x -> x.type() == ElfSection.SHT_SYMTAB);
            if (t.isPresent()) {
                symbolFile = d;
                table = t;
            }
        }
        boolean dynamic = table.isEmpty();
        if (dynamic) {
            table = elf.section(".dynsym").filter(x -> x.type() == ElfSection.SHT_DYNSYM);
        }
        String[] versions = dynamic ? versions(elf) : null;
        if (table.isPresent()) {
            List<ElfSymbol> syms = symbolFile.symbols(table.get());
            for (int i = 0; i < syms.size(); i++) {
                ElfSymbol sym = syms.get(i);
                int t = sym.type();
                if (t == ElfSymbol.STT_SECTION || t == ElfSymbol.STT_FILE || sym.name().isEmpty()
                        || sym.shndx() == ElfSymbol.SHN_UNDEF || sym.shndx() >= 0xff00) {
                    continue;
                }
                // objdump's compare_symbols: functions (STT_FUNC) first, then global, weak, local
                int rank = (t == ElfSymbol.STT_FUNC ? 4 : 0)
                        + (sym.bind() == ElfSymbol.STB_GLOBAL ? 3 : sym.bind() == ElfSymbol.STB_WEAK ? 2 : 1);
                a.add(new long[] {sym.value(), rank});
                n.add(versions != null && i < versions.length && versions[i] != null ? sym.name() + versions[i]
                        : sym.name());
                s.add(sym.shndx());
            }
        }
        plt(elf, a, n, s);
        return new ObjdumpSymbols(a, n, s, elf.sections(), gotSlots(elf, versions(elf)));
    }

    /** The debug file {@code DIR/.build-id/xx/rest.debug} of {@code elf}'s build-id, null when there is none. */
    private static ElfFile debugFile(ElfFile elf, java.nio.file.Path dir) {
        try {
            Optional<byte[]> id = elf.buildId();
            if (id.isEmpty()) {
                return null;
            }
            StringBuilder hex = new StringBuilder();
            for (byte b : id.get()) {
                hex.append(String.format("%02x", b & 0xff));
            }
            java.nio.file.Path p = dir.resolve(".build-id").resolve(hex.substring(0, 2)).resolve(hex.substring(2) + ".debug");
            return java.nio.file.Files.isRegularFile(p) ? ElfFile.open(p) : null;
        } catch (java.io.IOException | RuntimeException e) {
            return null; // as objdump: an unreadable debug file is not looked at
        }
    }

    /**
     * Per .dynsym entry, the version objdump appends to its name (bfd's symbol version string):
     * {@code @@NAME} for a defined default version ({@code @@Base} for the global index),
     * {@code @NAME} for a hidden or needed one; null for none. Null when the file has no versions.
     */
    private static String[] versions(ElfFile elf) throws ElfException {
        ElfSection versym = null;
        ElfSection verdef = null;
        ElfSection verneed = null;
        for (ElfSection sec : elf.sections()) {
            switch (sec.type()) {
                case SHT_GNU_VERSYM -> versym = sec;
                case SHT_GNU_VERDEF -> verdef = sec;
                case SHT_GNU_VERNEED -> verneed = sec;
                default -> {
                }
            }
        }
        if (versym == null) {
            return null;
        }
        Map<Integer, String> defNames = new HashMap<>();
        Map<Integer, String> needNames = new HashMap<>();
        if (verdef != null) {
            ByteBuffer b = ByteBuffer.wrap(elf.sectionBytes(verdef)).order(elf.order());
            byte[] str = strings(elf, verdef);
            int off = 0;
            for (int k = 0; k < verdef.info() && off + 20 <= b.limit(); k++) {
                int ndx = b.getShort(off + 4) & 0xffff;
                int aux = b.getInt(off + 12);
                if (off + aux + 8 <= b.limit()) {
                    defNames.put(ndx, cstr(str, b.getInt(off + aux)));
                }
                int next = b.getInt(off + 16);
                if (next <= 0) {
                    break;
                }
                off += next;
            }
        }
        if (verneed != null) {
            ByteBuffer b = ByteBuffer.wrap(elf.sectionBytes(verneed)).order(elf.order());
            byte[] str = strings(elf, verneed);
            int off = 0;
            for (int k = 0; k < verneed.info() && off + 16 <= b.limit(); k++) {
                int cnt = b.getShort(off + 2) & 0xffff;
                int aux = off + b.getInt(off + 8);
                for (int j = 0; j < cnt && aux + 16 <= b.limit(); j++) {
                    needNames.put(b.getShort(aux + 6) & 0x7fff, cstr(str, b.getInt(aux + 8)));
                    int next = b.getInt(aux + 12);
                    if (next <= 0) {
                        break;
                    }
                    aux += next;
                }
                int next = b.getInt(off + 12);
                if (next <= 0) {
                    break;
                }
                off += next;
            }
        }
        ByteBuffer v = ByteBuffer.wrap(elf.sectionBytes(versym)).order(elf.order());
        String[] out = new String[v.limit() / 2];
        for (int i = 0; i < out.length; i++) {
            int raw = v.getShort(i * 2) & 0xffff;
            int ndx = raw & 0x7fff;
            boolean hidden = (raw & 0x8000) != 0;
            if (ndx == 0) {
                continue;
            }
            String d = ndx == 1 ? "Base" : defNames.get(ndx);
            if (d != null) {
                out[i] = (hidden ? "@" : "@@") + d;
            } else if (needNames.containsKey(ndx)) {
                out[i] = "@" + needNames.get(ndx);
            }
        }
        return out;
    }

    private static byte[] strings(ElfFile elf, ElfSection sec) throws ElfException {
        Optional<ElfSection> str = elf.section(sec.link());
        return str.isPresent() ? elf.sectionBytes(str.get()) : new byte[0];
    }

    private static String cstr(byte[] b, int off) {
        if (off < 0 || off >= b.length) {
            return "";
        }
        int e = off;
        while (e < b.length && b[e] != 0) {
            e++;
        }
        return new String(b, off, e - off, StandardCharsets.UTF_8);
    }

    /** The GOT slots that .rela.dyn fills with a symbol, named by it with its version (objdump's dynamic relocations). */
    private static Map<Long, String> gotSlots(ElfFile elf, String[] versions) throws ElfException {
        Map<Long, String> out = new HashMap<>();
        Optional<ElfSection> dynsym = elf.section(".dynsym").filter(x -> x.type() == ElfSection.SHT_DYNSYM);
        if (dynsym.isEmpty()) {
            return out;
        }
        int count = elf.symbolCount(dynsym.get());
        List<ElfRelocation> rels = new ArrayList<>();
        for (String name : new String[] {".rela.dyn", ".rela.plt"}) {
            Optional<ElfSection> rel = elf.section(name);
            if (rel.isPresent() && rel.get().type() == ElfSection.SHT_RELA) {
                rels.addAll(elf.relocations(rel.get()));
            }
        }
        for (ElfRelocation r : rels) {
            int i = r.symbol();
            if (i > 0 && i < count) {
                String nm = elf.symbol(dynsym.get(), i).name();
                if (!nm.isEmpty()) {
                    String ver = versions != null && i < versions.length && versions[i] != null ? versions[i] : "";
                    // a slot's symbol is undefined here: bfd writes its version with one '@'
                    if (ver.startsWith("@@")) {
                        ver = ver.substring(1);
                    }
                    out.put(r.offset(), nm + ver);
                }
            }
        }
        return out;
    }

    private static void plt(ElfFile elf, List<long[]> a, List<String> n, List<Integer> s) throws ElfException {
        Optional<ElfSection> dynsym = elf.section(".dynsym").filter(x -> x.type() == ElfSection.SHT_DYNSYM);
        Optional<ElfSection> rel = elf.section(".rela.plt");
        if (dynsym.isEmpty() || rel.isEmpty() || rel.get().type() == ElfSection.SHT_NOBITS) {
            return;
        }
        Optional<ElfSection> sec = elf.section(".plt.sec");
        long first;
        ElfSection plt;
        if (sec.isPresent()) {
            plt = sec.get();
            first = plt.addr();
        } else {
            Optional<ElfSection> p = elf.section(".plt");
            if (p.isEmpty()) {
                return;
            }
            plt = p.get();
            first = plt.addr() + 16;
        }
        int count = elf.symbolCount(dynsym.get());
        int[] idx = elf.relocationSymbols(rel.get());
        for (int k = 0; k < idx.length; k++) {
            int i = idx[k];
            String nm = i > 0 && i < count ? elf.symbol(dynsym.get(), i).name() : "";
            if (nm.isEmpty()) {
                continue;
            }
            a.add(new long[] {first + 16L * k, 0});
            n.add(nm + "@plt");
            s.add(plt.index());
        }
    }

    @Override
    public String name(long address) {
        ElfSection in = sectionOf(address);
        Sorted own = in == null ? null : bySection.get(in.index());
        int f = own == null ? -1 : own.floor(address);
        Sorted from = own;
        // a slot a dynamic relocation fills is named by its symbol unless a symbol is there
        String slot = gotSlots.get(address);
        if (slot != null && (f < 0 || own.addr[f] != address)) {
            return "<" + demangle(slot) + ">";
        }
        if (f < 0) {
            // none at or below it in its section: the nearest anywhere, else the first after it
            from = all;
            f = all.floor(address);
            if (f < 0) {
                Sorted next = own != null && own.addr.length > 0 ? own : all;
                if (next.addr.length == 0) {
                    return null;
                }
                return "<" + demangle(next.name[0]) + "-0x" + Long.toHexString(next.addr[0] - address) + ">";
            }
        }
        long off = address - from.addr[f];
        String n = demangle(from.name[f]);
        return off == 0 ? "<" + n + ">" : "<" + n + "+0x" + Long.toHexString(off) + ">";
    }

    /** objdump -C's bfd_demangle: the name before any "@" suffix demangled with parameters, the suffix kept. */
    private String demangle(String name) {
        if (!demangle) {
            return name;
        }
        int at = name.indexOf('@', 1);
        String base = at < 0 ? name : name.substring(0, at);
        String d = dev.jperf.report.symbol.Demangler.PERF_VERBOSE.demangle(base);
        return d.equals(base) ? name : at < 0 ? d : d + name.substring(at);
    }

    private ElfSection sectionOf(long address) {
        for (ElfSection s : alloc) {
            if (Long.compareUnsigned(address - s.addr(), s.size()) < 0) {
                return s;
            }
        }
        return null;
    }
}
