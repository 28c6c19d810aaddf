package dev.jperf.loader;

import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfKind;
import dev.jperf.format.btf.BtfType;
import dev.jperf.format.elf.ElfException;
import dev.jperf.format.elf.ElfSymbol;

/**
 * The object's externs (libbpf's bpf_object__collect_externs): undefined global symbols, each
 * matched to its BTF VAR or FUNC in .kconfig or .ksyms; .kconfig ones laid out in the .kconfig
 * map (sorted by alignment, size, name), .ksyms ones turned into loadable BTF (4-byte variables,
 * functions made global, a dummy variable for parameter names), as libbpf patches them.
 */
final class Externs {
    private Externs() {
    }

    static boolean symIsExtern(ElfSymbol s) {
        return s.shndx() == ElfSymbol.SHN_UNDEF && (s.bind() == ElfSymbol.STB_GLOBAL || s.bind() == ElfSymbol.STB_WEAK)
                && s.type() == ElfSymbol.STT_NOTYPE;
    }

    static void collect(BpfObject o) throws ElfException {
        Btf b = o.btf == null ? null : o.btf.btf();
        int dummyVar = addDummyKsymVar(o);
        b = o.btf == null ? null : o.btf.btf();
        int kcfgSec = -1;
        int ksymSec = -1;
        for (int i = 0; i < o.symbols.size(); i++) {
            ElfSymbol sym = o.symbols.get(i);
            if (!symIsExtern(sym) || sym.name().isEmpty()) {
                continue;
            }
            if (b == null) {
                throw new ElfException(o.path + ": failed to find BTF for extern '" + sym.name() + "': no .BTF");
            }
            int id = findExternBtfId(o, b, sym.name());
            int secId = findExternSecBtfId(o, b, id);
            String secName = b.name(secId);
            if (secName.equals(".kconfig")) {
                if (b.kind(id) == BtfKind.FUNC) {
                    throw new ElfException(o.path + ": extern function " + sym.name() + " is unsupported under .kconfig");
                }
                Extern e = new Extern(sym.name(), Extern.Type.KCFG, i, id, sym.bind() == ElfSymbol.STB_WEAK);
                int t = ((BtfType.Var) b.type(id)).type();
                long sz = BtfTypes.resolveSize(b, t);
                int align = BtfTypes.alignOf(b, t);
                if (sz <= 0 || align <= 0) {
                    throw new ElfException(o.path + ": failed to resolve size of extern (kcfg) '" + sym.name() + "'");
                }
                e.kcfgSize = (int) sz;
                e.kcfgAlign = align;
                e.kcfgType = kcfgType(b, t, e);
                if (e.kcfgType == Extern.KcfgType.UNKNOWN) {
                    throw new ElfException(o.path + ": extern (kcfg) '" + sym.name() + "': type is unsupported");
                }
                kcfgSec = secId;
                o.externs.add(e);
            } else if (secName.equals(".ksyms")) {
                Extern e = new Extern(sym.name(), Extern.Type.KSYM, i, id, sym.bind() == ElfSymbol.STB_WEAK);
                int t = b.kind(id) == BtfKind.FUNC ? ((BtfType.Func) b.type(id)).type() : ((BtfType.Var) b.type(id)).type();
                e.ksymTypeId = BtfTypes.skipModsAndTypedefs(b, t);
                e.isFunc = b.kind(id) == BtfKind.FUNC;
                ksymSec = secId;
                o.externs.add(e);
            } else {
                throw new ElfException(o.path + ": unrecognized extern section '" + secName + "'");
            }
        }
        if (o.externs.isEmpty()) {
            return;
        }
        // sort by type, kcfg ones by alignment (descending), size, then name (cmp_externs)
        o.externs.sort((x, y) -> {
            if (x.type != y.type) {
                return x.type.compareTo(y.type);
            }
            if (x.type == Extern.Type.KCFG) {
                if (x.kcfgAlign != y.kcfgAlign) {
                    return Integer.compare(y.kcfgAlign, x.kcfgAlign);
                }
                if (x.kcfgSize != y.kcfgSize) {
                    return Integer.compare(x.kcfgSize, y.kcfgSize);
                }
            }
            return x.name.compareTo(y.name);
        });
        if (ksymSec >= 0) {
            int intId = findIntBtfId(b);
            int n = b.type(ksymSec) instanceof BtfType.DataSec d ? d.vars().size() : 0;
            int off = 0;
            for (int i = 0; i < n; i++, off += 4) {
                int[] vs = o.btf.vsi(ksymSec, i);
                String extName = o.btf.btf().name(vs[0]);
                Extern e = o.extern(extName);
                if (e == null) {
                    throw new ElfException(o.path + ": failed to find extern definition for BTF '" + extName + "'");
                }
                int vtype = vs[0];
                if (o.btf.btf().kind(vtype) == BtfKind.FUNC) {
                    int proto = ((BtfType.Func) o.btf.btf().type(vtype)).type();
                    if (BtfTypes.kind(o.btf.btf(), proto) == BtfKind.FUNC_PROTO) {
                        BtfType.FuncProto fp = (BtfType.FuncProto) o.btf.btf().type(proto);
                        for (int j = 0; j < fp.params().size(); j++) {
                            if (fp.params().get(j).type() != 0 && o.btf.paramNameOff(proto, j) == 0) {
                                o.btf.setParamNameOff(proto, j, o.btf.nameOff(dummyVar));
                            }
                        }
                    }
                    vs[0] = dummyVar;
                    o.btf.setInfo(vtype, BtfKind.FUNC.number(), BtfTypes.BTF_FUNC_GLOBAL, false);
                } else {
                    o.btf.setVarLinkage(vtype, BtfTypes.BTF_VAR_GLOBAL_ALLOCATED);
                    o.btf.setSizeOrType(vtype, intId);
                }
                o.btf.setVsi(ksymSec, i, vs[0], off, 4);
            }
            o.btf.setSizeOrType(ksymSec, off);
        }
        if (kcfgSec >= 0) {
            int off = 0;
            for (Extern e : o.externs) {
                if (e.type != Extern.Type.KCFG) {
                    continue;
                }
                e.kcfgDataOff = (off + e.kcfgAlign - 1) / e.kcfgAlign * e.kcfgAlign;
                off = e.kcfgDataOff + e.kcfgSize;
            }
            o.btf.setSizeOrType(kcfgSec, off);
            int n = ((BtfType.DataSec) b.type(kcfgSec)).vars().size();
            for (int i = 0; i < n; i++) {
                int[] vs = o.btf.vsi(kcfgSec, i);
                String extName = o.btf.btf().name(vs[0]);
                Extern e = o.extern(extName);
                if (e == null) {
                    throw new ElfException(o.path + ": failed to find extern definition for BTF var '" + extName + "'");
                }
                o.btf.setVarLinkage(vs[0], BtfTypes.BTF_VAR_GLOBAL_ALLOCATED);
                o.btf.setVsi(kcfgSec, i, vs[0], e.kcfgDataOff, vs[2]);
            }
        }
    }

    private static int addDummyKsymVar(BpfObject o) {
        if (o.btf == null) {
            return 0;
        }
        Btf b = o.btf.btf();
        int sec = b.findByName(".ksyms", BtfKind.DATASEC);
        if (sec < 0) {
            return 0;
        }
        boolean hasFunc = false;
        for (BtfType.VarSecInfo v : ((BtfType.DataSec) b.type(sec)).vars()) {
            if (BtfTypes.valid(b, v.type()) && b.kind(v.type()) == BtfKind.FUNC) {
                hasFunc = true;
            }
        }
        return hasFunc ? o.btf.addVar("dummy_ksym", BtfTypes.BTF_VAR_GLOBAL_ALLOCATED, findIntBtfId(b)) : 0;
    }

    private static int findIntBtfId(Btf b) {
        for (int id = 1; id <= b.lastId(); id++) {
            if (b.kind(id) == BtfKind.INT && ((BtfType.Int) b.type(id)).bits() == 32) {
                return id;
            }
        }
        return 0;
    }

    private static int findExternBtfId(BpfObject o, Btf b, String extName) throws ElfException {
        for (int id = 1; id <= b.lastId(); id++) {
            BtfKind k = b.kind(id);
            if ((k != BtfKind.VAR && k != BtfKind.FUNC) || !b.name(id).equals(extName)) {
                continue;
            }
            boolean ok = k == BtfKind.VAR ? ((BtfType.Var) b.type(id)).linkage() == BtfTypes.BTF_VAR_GLOBAL_EXTERN
                    : ((BtfType.Func) b.type(id)).linkage() == BtfTypes.BTF_FUNC_EXTERN;
            if (!ok) {
                throw new ElfException(o.path + ": failed to find BTF for extern '" + extName + "': -22");
            }
            return id;
        }
        throw new ElfException(o.path + ": failed to find BTF for extern '" + extName + "': -2");
    }

    private static int findExternSecBtfId(BpfObject o, Btf b, int extId) throws ElfException {
        for (int id = 1; id <= b.lastId(); id++) {
            if (b.kind(id) != BtfKind.DATASEC) {
                continue;
            }
            for (BtfType.VarSecInfo v : ((BtfType.DataSec) b.type(id)).vars()) {
                if (v.type() == extId) {
                    return id;
                }
            }
        }
        throw new ElfException(o.path + ": failed to find BTF for extern [" + extId + "] section");
    }

    private static Extern.KcfgType kcfgType(Btf b, int id, Extern e) {
        int t = BtfTypes.skipModsAndTypedefs(b, id);
        if (t <= 0) {
            return Extern.KcfgType.UNKNOWN;
        }
        BtfType ty = b.type(t);
        if (ty instanceof BtfType.Int i) {
            if ((i.encoding() & BtfTypes.BTF_INT_BOOL) != 0) {
                return i.size() == 1 ? Extern.KcfgType.BOOL : Extern.KcfgType.UNKNOWN;
            }
            if (e != null) {
                e.kcfgSigned = (i.encoding() & BtfTypes.BTF_INT_SIGNED) != 0;
            }
            if (i.size() == 1) {
                return Extern.KcfgType.CHAR;
            }
            if (i.size() < 1 || i.size() > 8 || (i.size() & (i.size() - 1)) != 0) {
                return Extern.KcfgType.UNKNOWN;
            }
            return Extern.KcfgType.INT;
        }
        if (ty instanceof BtfType.Enum en) {
            if ((en.kind() == BtfKind.ENUM && en.size() != 4) || !en.name().equals("libbpf_tristate")) {
                return Extern.KcfgType.UNKNOWN;
            }
            return Extern.KcfgType.TRISTATE;
        }
        if (ty instanceof BtfType.Array a) {
            if (a.nelems() == 0 || kcfgType(b, a.elemType(), null) != Extern.KcfgType.CHAR) {
                return Extern.KcfgType.UNKNOWN;
            }
            return Extern.KcfgType.CHAR_ARR;
        }
        return Extern.KcfgType.UNKNOWN;
    }

}
