package dev.jperf.loader;

import dev.jperf.format.bpf.Uapi;
import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfKind;
import dev.jperf.format.btf.BtfType;
import dev.jperf.format.elf.ElfException;
import dev.jperf.format.elf.ElfRelocation;
import dev.jperf.format.elf.ElfSection;
import dev.jperf.format.elf.ElfSymbol;
import java.util.List;

/**
 * The relocations of the programs' sections (libbpf's bpf_object__collect_relos and
 * bpf_program__record_reloc): map and global-data references, calls and subprogram addresses,
 * externs; and {@code .rel.maps}, which fills map-in-map and prog-array slots.
 */
final class Relocations {
    private Relocations() {
    }

    /** bpf_object__collect_map_relos: each .rel.maps entry fills one slot of a map's {@code values}. */
    private static void collectMapRelos(BpfObject o) throws ElfException {
        if (o.mapsRelIdx < 0) {
            return;
        }
        if (o.btfMapsShndx < 0 || o.btf == null) {
            throw new ElfException(o.path + ": .rel.maps without BTF-defined maps");
        }
        Btf b = o.btf.btf();
        int dsId = -1;
        for (int id = 1; id <= b.lastId(); id++) {
            if (b.kind(id) == BtfKind.DATASEC && b.name(id).equals(".maps")) {
                dsId = id;
                break;
            }
        }
        BtfType.DataSec ds = (BtfType.DataSec) b.type(dsId);
        List<ElfRelocation> rels = o.elf.relocations(o.sections.get(o.mapsRelIdx));
        for (int i = 0; i < rels.size(); i++) {
            ElfRelocation r = rels.get(i);
            if (r.symbol() < 0 || r.symbol() >= o.symbols.size()) {
                throw new ElfException(o.path + ": .maps relo #" + i + ": symbol " + r.symbol() + " not found");
            }
            ElfSymbol sym = o.symbols.get(r.symbol());
            BpfMap map = null;
            BtfType.VarSecInfo vi = null;
            for (BpfMap m : o.maps) {
                if (m.secIdx != o.btfMapsShndx || m.btfVarIdx < 0) {
                    continue;
                }
                BtfType.VarSecInfo v = ds.vars().get(m.btfVarIdx);
                if (Integer.toUnsignedLong(v.offset()) <= r.offset()
                        && r.offset() + 8 <= Integer.toUnsignedLong(v.offset()) + Integer.toUnsignedLong(v.size())) {
                    map = m;
                    vi = v;
                    break;
                }
            }
            if (map == null) {
                throw new ElfException(o.path + ": .maps relo #" + i + ": cannot find map '" + sym.name() + "' at offset "
                        + r.offset());
            }
            Object target;
            boolean mapInMap = map.type == Uapi.BPF_MAP_TYPE_ARRAY_OF_MAPS || map.type == Uapi.BPF_MAP_TYPE_HASH_OF_MAPS;
            if (mapInMap) {
                if (sym.shndx() != o.btfMapsShndx) {
                    throw new ElfException(o.path + ": .maps relo #" + i + ": '" + sym.name() + "' isn't a BTF-defined map");
                }
                if (map.type == Uapi.BPF_MAP_TYPE_HASH_OF_MAPS && map.keySize != 4) {
                    throw new ElfException(o.path + ": .maps relo #" + i + ": hash-of-maps '" + map.name
                            + "' should have key size 4");
                }
                target = o.map(sym.name());
                if (target == null) {
                    throw new ElfException(o.path + ": .maps relo #" + i + ": '" + sym.name() + "' isn't a valid map reference");
                }
            } else if (map.type == Uapi.BPF_MAP_TYPE_PROG_ARRAY) {
                BpfProgram p = null;
                for (BpfProgram q : o.programs) {
                    if (q.name.equals(sym.name())) {
                        p = q;
                        break;
                    }
                }
                if (p == null || p.secIdx != sym.shndx() || p.secInsnOff * 8L != sym.value() || o.isSubprog(p)) {
                    throw new ElfException(o.path + ": .maps relo #" + i + ": '" + sym.name() + "' isn't an entry-point program");
                }
                target = p;
            } else {
                throw new ElfException(o.path + ": .maps relo #" + i + ": map '" + map.name + "' has no slots to fill");
            }
            BtfType.Composite def = (BtfType.Composite) b.type(BtfTypes.skipModsAndTypedefs(b,
                    ((BtfType.Var) b.type(vi.type())).type()));
            BtfType.Member last = def.members().get(def.members().size() - 1);
            long moff = Integer.toUnsignedLong(last.bitOffset()) / 8;
            long rel = r.offset() - Integer.toUnsignedLong(vi.offset());
            if (!last.name().equals("values") || rel < moff || (rel - moff) % 8 != 0) {
                throw new ElfException(o.path + ": .maps relo #" + i + ": not in map '" + map.name + "''s values");
            }
            int slot = (int) ((rel - moff) / 8);
            if (slot >= map.initSlots.length) {
                map.initSlots = java.util.Arrays.copyOf(map.initSlots, slot + 1);
            }
            map.initSlots[slot] = target;
        }
    }

    static void collect(BpfObject o) throws ElfException {
        collectMapRelos(o);
        for (ElfSection s : o.sections) {
            if (o.secTypes[s.index()] != BpfObject.SecType.RELO) {
                continue;
            }
            int target = s.info();
            ElfSection ts = o.sections.get(target);
            List<ElfRelocation> rels = o.elf.relocations(s);
            for (int i = 0; i < rels.size(); i++) {
                ElfRelocation r = rels.get(i);
                if (r.symbol() < 0 || r.symbol() >= o.symbols.size()) {
                    throw new ElfException(o.path + ": sec '" + s.name() + "': symbol #" + r.symbol() + " not found for relo #" + i);
                }
                ElfSymbol sym = o.symbols.get(r.symbol());
                if (sym.shndx() >= o.sections.size()) {
                    throw new ElfException(o.path + ": sec '" + s.name() + "': corrupted symbol #" + r.symbol()
                            + " pointing to invalid section #" + sym.shndx() + " for relo #" + i);
                }
                if (r.offset() % 8 != 0 || r.offset() < 0 || r.offset() >= ts.size()) {
                    throw new ElfException(o.path + ": sec '" + s.name() + "': invalid offset 0x"
                            + Long.toHexString(r.offset()) + " for relo #" + i);
                }
                int insnIdx = (int) (r.offset() / 8);
                String symName = sym.type() == ElfSymbol.STT_SECTION && sym.name().isEmpty() ? o.secName(sym.shndx()) : sym.name();
                BpfProgram p = o.findProg(target, insnIdx);
                if (p == null) {
                    continue; // relocation in code no program owns (an eliminated __weak subprogram)
                }
                p.relocs.add(recordReloc(o, p, insnIdx - p.secInsnOff, symName, sym, r.symbol()));
            }
        }
    }

    private static Reloc recordReloc(BpfObject o, BpfProgram p, int insnIdx, String symName, ElfSymbol sym, int symIdx) throws ElfException {
        byte[] in = p.insns;
        String where = o.path + ": prog '" + p.name + "': ";
        if (!Insns.isCall(in, insnIdx) && !Insns.isLdImm64(in, insnIdx)) {
            throw new ElfException(where + "invalid relo against '" + symName + "' for insns[" + insnIdx + "].code 0x"
                    + Integer.toHexString(Insns.code(in, insnIdx)));
        }
        if (Insns.isLdImm64(in, insnIdx) && insnIdx + 1 >= p.secInsnCnt) {
            throw new ElfException(where + "ld_imm64 at the program's last instruction " + insnIdx);
        }
        if (Externs.symIsExtern(sym)) {
            for (int i = 0; i < o.externs.size(); i++) {
                if (o.externs.get(i).symIdx == symIdx) {
                    return new Reloc(Insns.isCall(in, insnIdx) ? Reloc.Type.EXTERN_FUNC : Reloc.Type.EXTERN_VAR, insnIdx, -1,
                            i, null);
                }
            }
            throw new ElfException(where + "extern relo failed to find extern for '" + symName + "' (" + symIdx + ")");
        }
        int shndx = sym.shndx();
        if (Insns.isCall(in, insnIdx)) {
            if (Insns.src(in, insnIdx) != Uapi.BPF_PSEUDO_CALL) {
                throw new ElfException(where + "incorrect bpf_call opcode");
            }
            if (shndx == 0 || shndx != o.textShndx) {
                throw new ElfException(where + "bad call relo against '" + symName + "' in section '" + o.secName(shndx) + "'");
            }
            if (sym.value() % 8 != 0) {
                throw new ElfException(where + "bad call relo against '" + symName + "' at offset " + sym.value());
            }
            return new Reloc(Reloc.Type.CALL, insnIdx, -1, (int) sym.value(), null);
        }
        if (shndx == 0 || shndx >= BpfObject.SHN_LORESERVE) {
            throw new ElfException(where + "invalid relo against '" + symName + "' in special section 0x"
                    + Integer.toHexString(shndx) + "; forgot to initialize global var?..");
        }
        boolean subprog = shndx == o.textShndx && ((sym.bind() == ElfSymbol.STB_LOCAL && sym.type() == ElfSymbol.STT_SECTION)
                || (sym.bind() == ElfSymbol.STB_GLOBAL && sym.type() == ElfSymbol.STT_FUNC));
        if (subprog) {
            if (sym.value() % 8 != 0 || Insns.imm(in, insnIdx) % 8 != 0) {
                throw new ElfException(where + "bad subprog addr relo against '" + symName + "'");
            }
            return new Reloc(Reloc.Type.SUBPROG_ADDR, insnIdx, -1, (int) sym.value(), null);
        }
        BpfObject.SecType st = o.secTypes[shndx];
        if (st != BpfObject.SecType.DATA && st != BpfObject.SecType.RODATA && st != BpfObject.SecType.BSS) {
            if (shndx != o.btfMapsShndx && shndx != o.legacyMapsShndx) {
                throw new ElfException(where + "bad map relo against '" + symName + "' in section '" + o.secName(shndx) + "'");
            }
            for (int i = 0; i < o.maps.size(); i++) {
                BpfMap m = o.maps.get(i);
                if (m.internal == BpfMap.Internal.NONE && m.secIdx == shndx && m.secOffset == sym.value()) {
                    return new Reloc(Reloc.Type.LD64, insnIdx, i, 0, null);
                }
            }
            throw new ElfException(where + "map relo failed to find map for section '" + o.secName(shndx) + "', off "
                    + sym.value());
        }
        for (int i = 0; i < o.maps.size(); i++) {
            BpfMap m = o.maps.get(i);
            if (m.internal != BpfMap.Internal.NONE && m.internal != BpfMap.Internal.KCONFIG && m.secIdx == shndx) {
                return new Reloc(Reloc.Type.DATA, insnIdx, i, (int) sym.value(), null);
            }
        }
        throw new ElfException(where + "data relo failed to find map for section '" + o.secName(shndx) + "'");
    }
}
